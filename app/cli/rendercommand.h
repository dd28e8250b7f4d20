#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace clab::cli {

// `composelab render FILE --out OUT.{png,svg,pdf} [--dpi N]`: draws a design's canvas, as the
// GUI shows it (layout, findings badges, composed systems), without a display.
struct RenderOptions
{
    std::string file;
    std::string out;
    int dpi = 192;
};

// 0 done, 1 bad design file or unwritable output (message on err).
int renderCommand(const RenderOptions &options, std::ostream &out, std::ostream &err);
void addRenderSubcommand(CLI::App &app, RenderOptions &options);

} // namespace clab::cli
