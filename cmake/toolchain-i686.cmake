# Cross build for 32-bit x86 (i686) with Debian's g++-i686-linux-gnu.
#   cmake -S . -B build-i686 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i686.cmake
# `make i686` does this and runs the unit-test suites.
#
# -msse2 -mfpmath=sse: without them float arithmetic runs on the x87 unit, with 80-bit
# registers. Quantization would then round differently from every other host (other
# codes, other golden bytes), and a float loaded into an x87 register is converted,
# which turns a signalling NaN quiet (raw floats would no longer travel bit-exact).
# SSE2 gives IEEE binary32/binary64 arithmetic, as on x86-64. (A float returned by a
# function still passes through st(0) in the i386 ABI; the tests check that raw floats
# survive anyway.)
#
# The executables are linked statically, so they run natively on an x86-64 kernel with
# 32-bit support, without the i386 loader and libraries installed; to run them under qemu
# instead (`make i686` does, unless I686_EMULATOR= is given), add
# -DCMAKE_CROSSCOMPILING_EMULATOR=qemu-i386.
#
# Boost and Catch2 are header-only: see toolchain-s390x.cmake for why /usr/include is
# added with -idirafter.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)

set(NETSER_CROSS_TRIPLE i686-linux-gnu)
set(CMAKE_CXX_COMPILER ${NETSER_CROSS_TRIPLE}-g++)
set(CMAKE_C_COMPILER ${NETSER_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_FLAGS_INIT "-msse2 -mfpmath=sse -idirafter /usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

set(CMAKE_FIND_ROOT_PATH /usr/${NETSER_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
list(APPEND CMAKE_PREFIX_PATH "/usr/lib/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu/cmake")
