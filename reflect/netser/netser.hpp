#pragma once

// netser: the core plus the reflection layer (Boost.Describe / Boost.PFR).

#include <netser/core.hpp>

#include <netser/attributes.hpp>
#include <netser/check.hpp>
#include <netser/delta.hpp>
#include <netser/delta_packet.hpp>
#include <netser/linking.hpp>
#include <netser/packet.hpp>
#include <netser/profile_stream.hpp>
#include <netser/quaternion.hpp>
#include <netser/reflect.hpp>
#include <netser/schema_hash.hpp>
#include <netser/schema_json.hpp>
#include <netser/to_string.hpp>
#include <netser/unit_vector.hpp>

// Snapshot sessions: baseline fingerprints, rings, acks, budgets, packet kinds.
#include <netser/acks.hpp>
#include <netser/baseline_ring.hpp>
#include <netser/delta_budget.hpp>
#include <netser/fingerprint.hpp>
#include <netser/packet_kind.hpp>
