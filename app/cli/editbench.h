#pragma once

#include <functional>

namespace clab::cli {

// `composelab bench` edit_move_1000: a move on the canvas of the laid-out 1,000-device pool, as the
// GUI handles it (the move command on the document's undo stack, the canvas following). Needs a
// running QApplication (the bench makes one); nothing without one.
std::function<void()> editMoveBenchmarkBody();

} // namespace clab::cli
