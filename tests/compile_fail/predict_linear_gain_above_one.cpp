// expect: netser: netser::predict_linear\(numerator, denominator\) needs 1 <= numerator <= denominator <= 64
// Fix: a gain of at most 1, netser::predict_linear(3, 4) to damp it.
#include <netser/netser.hpp>
#include <netser/prediction.hpp>

namespace game {

struct Position {
    int x = 0;
};
NETSER_STRUCT(Position, (x, netser::range(0, 1000), netser::predict_linear(5, 4)))

void predict(Position& out, const Position& b0, const Position& b1) {
    netser::predicted_baseline(out, netser::prediction_spacing{6, 1, 0}, b0, &b1);
}

} // namespace game
