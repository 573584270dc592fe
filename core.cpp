#include <netser/core.hpp>
