#pragma once

// netser core: the bit-packer, the streams and the primitives. No Boost.

#include <netser/bit_reader.hpp>
#include <netser/bit_writer.hpp>
#include <netser/bits_required.hpp>
#include <netser/error.hpp>
#include <netser/linear_prediction.hpp>
#include <netser/named.hpp>
#include <netser/primitives.hpp>
#include <netser/quantization.hpp>
#include <netser/relative_index.hpp>
#include <netser/sequence.hpp>
#include <netser/stream.hpp>
#include <netser/utf8.hpp>
#include <netser/value_codes.hpp>
#include <netser/wire_layout.hpp>

// NETSER_STRUCT without the reflection layer: a message that names its header.
#include <netser/detail/reflection_hint.hpp>
