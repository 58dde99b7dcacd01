"""Writes the DRAM image of simulate.mlir: OUT.

Bytes 0-255: the weight row W[oc][ic] = 3 if oc == ic else 0.
Bytes 256-271: the input row x[ic] = -80 + 10 ic.
Bytes 272-287: the output row, filled with 0x77 so that unwritten bytes show.
"""
import sys

image = bytearray(288)
for oc in range(16):
    image[oc * 16 + oc] = 3
for ic in range(16):
    image[256 + ic] = (-80 + 10 * ic) & 0xFF
image[272:288] = b"\x77" * 16
open(sys.argv[1], "wb").write(image)
