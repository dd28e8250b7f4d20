#include "util/embedded.h"

#include <stdexcept>
#include <string>

namespace clab {

std::string_view embeddedText(std::string_view path)
{
    for (const EmbeddedFile &f : embeddedFiles()) {
        if (f.path == path)
            return f.text;
    }
    throw std::logic_error(std::string(path) + " is not compiled into the program");
}

} // namespace clab
