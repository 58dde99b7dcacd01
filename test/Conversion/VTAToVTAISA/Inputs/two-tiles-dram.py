"""Writes the DRAM image of simulate.mlir.

Bytes 0-127: the input rows, tile t's four BLOCK_IN blocks at rows 4t..4t+3,
x_t[16 kb + ic] = ic + 10 t.
Bytes 256-2303: the weight rows, tile t's four blocks at rows 1 + 4t + kb,
each the 16 x 16 identity.
Bytes 2304-2335: the two output rows, filled with 0x77 so that unwritten
bytes show.
"""
import sys

image = bytearray(2336)
for t in range(2):
    for kb in range(4):
        for ic in range(16):
            image[(4 * t + kb) * 16 + ic] = ic + 10 * t
        for oc in range(16):
            image[256 * (1 + 4 * t + kb) + oc * 16 + oc] = 1
image[2304:2336] = b"\x77" * 32
open(sys.argv[1], "wb").write(image)
