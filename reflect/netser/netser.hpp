#pragma once

// netser: the core plus the reflection layer (Boost.Describe / Boost.PFR).

#include <netser/core.hpp>
#include <netser/reflect.hpp>
