"""Writes a corrupted copy of a VTA binary: corrupt.py IN OUT MUTATION.

Offsets follow the container of include/raf/Target/VTA/BinaryFormat.h:
a 32-byte header, 4 bytes per micro-op, then 16 bytes per instruction.
"""
import struct
import sys

src, dst, mutation = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
num_uops = struct.unpack_from("<I", data, 24)[0]


def insn(index):
    """Byte offset of instruction `index`."""
    return 32 + 4 * num_uops + 16 * index


def set_bits(offset, first_bit, width, value):
    """Replaces bits [first_bit, first_bit + width) of the 128-bit word at
    `offset` (little-endian) by `value`."""
    word = int.from_bytes(data[offset:offset + 16], "little")
    mask = ((1 << width) - 1) << first_bit
    word = (word & ~mask) | ((value << first_bit) & mask)
    data[offset:offset + 16] = word.to_bytes(16, "little")


if mutation == "empty":
    data = bytearray()
elif mutation == "magic":
    data[0:8] = b"RAF-VTB\0"
elif mutation == "version":
    struct.pack_into("<I", data, 8, 2)
elif mutation == "reserved":
    data[22] = 1
elif mutation == "config":
    data[12] = 4  # log_inp_width
elif mutation == "header-only":
    data = data[:20]
elif mutation == "truncated":
    data = data[:-5]
elif mutation == "trailing":
    data += bytes(16)
elif mutation == "more-insns":
    struct.pack_into("<I", data, 28, struct.unpack_from("<I", data, 28)[0] + 1)
elif mutation == "fewer-uops":
    struct.pack_into("<I", data, 24, num_uops - 1)
elif mutation == "opcode":
    set_bits(insn(2), 0, 3, 6)
elif mutation == "memory-type":
    set_bits(insn(1), 7, 3, 7)
elif mutation == "alu-opcode":
    set_bits(insn(6), 108, 3, 5)
elif mutation == "unused-bit":
    set_bits(insn(8), 62, 1, 1)
elif mutation == "finish-bits":
    set_bits(insn(9), 100, 1, 1)
elif mutation == "uop-bit":
    data[32 + 3] |= 0x80  # bit 31 of micro-op 0 (8x8x8: 30 bits used)
elif mutation == "sram-base":
    set_bits(insn(1), 10, 16, 4000)  # the INP load
elif mutation == "alu-reset":
    set_bits(insn(7), 7, 1, 1)
elif mutation == "no-finish":
    set_bits(insn(9), 0, 3, 2)  # FINISH becomes an (empty) GEMM
elif mutation == "tokens":
    set_bits(insn(9), 4, 1, 0)  # FINISH no longer pops s2g
elif mutation == "uop-range":
    set_bits(insn(0), 80, 16, 3)  # the UOP load reads 3 of 2 micro-ops
else:
    sys.exit("unknown mutation " + mutation)
open(dst, "wb").write(data)
