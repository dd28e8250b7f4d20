#include "cli/validators.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace clab::cli {

CLI::Validator wholeNumber(long long minimum, long long maximum)
{
    const std::string range
        = maximum == std::numeric_limits<int>::max()
              ? "of at least " + std::to_string(minimum)
              : "from " + std::to_string(minimum) + " to " + std::to_string(maximum);
    return CLI::Validator(
        [minimum, maximum, range](std::string &value) -> std::string {
            errno = 0;
            char *end = nullptr;
            const long long v = std::strtoll(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || errno == ERANGE || v < minimum || v > maximum)
                return "expected a whole number " + range + ", found \"" + value + "\"";
            return {};
        },
        "INT " + range);
}

} // namespace clab::cli
