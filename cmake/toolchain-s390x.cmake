# Cross build for s390x (64-bit, big-endian) with Debian's g++-s390x-linux-gnu; the
# tests run under qemu-user (ctest prefixes them with CMAKE_CROSSCOMPILING_EMULATOR).
#   cmake -S . -B build-s390x -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake
# `make s390x` does this and runs the unit-test suites.
#
# Boost and Catch2 are header-only: the host's Debian packages serve, but only their
# headers. Their CMake configs point at /usr/include, which also holds the host's C
# library headers; -idirafter puts /usr/include after the cross compiler's own system
# directories (so <stdlib.h>, <bits/...> and libstdc++ come from /usr/s390x-linux-gnu),
# and being in the compiler's search list it counts as an implicit directory, so CMake
# drops the -isystem /usr/include the imported targets would add before them.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)

set(NETSER_CROSS_TRIPLE s390x-linux-gnu)
set(CMAKE_CXX_COMPILER ${NETSER_CROSS_TRIPLE}-g++)
set(CMAKE_C_COMPILER ${NETSER_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_FLAGS_INIT "-idirafter /usr/include")

set(CMAKE_FIND_ROOT_PATH /usr/${NETSER_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Package configs of header-only libraries may come from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
list(APPEND CMAKE_PREFIX_PATH "/usr/lib/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu/cmake")

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x -L /usr/${NETSER_CROSS_TRIPLE})
