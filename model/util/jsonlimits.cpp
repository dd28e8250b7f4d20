#include "util/jsonlimits.h"

#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <vector>

namespace clab {

namespace {

struct Open
{
    bool object = false;
    bool expectKey = false; // in an object, the next string is a key
    std::size_t commas = 0;
    std::string name; // this container's key or index in its parent
    std::string key;  // in an object: the last key seen
};

std::string pointerOf(const std::vector<Open> &stack)
{
    std::string pointer;
    for (std::size_t i = 1; i < stack.size(); ++i)
        pointer = childPointer(pointer, stack[i].name);
    return pointer.empty() ? "/" : pointer;
}

} // namespace

void checkJsonLimits(std::string_view text, const std::string &file, const JsonLimits &limits)
{
    std::vector<Open> stack;
    std::size_t line = 1;
    std::size_t lineStart = 0;
    bool inString = false;
    std::size_t stringStart = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
                if (!stack.empty() && stack.back().expectKey) {
                    stack.back().key.assign(text.substr(stringStart, i - stringStart));
                    stack.back().expectKey = false;
                }
            }
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            stringStart = i + 1;
            break;
        case '\n':
            ++line;
            lineStart = i + 1;
            break;
        case '[':
        case '{': {
            if (int(stack.size()) >= limits.maxDepth)
                throw InputError(file,
                                 "line " + std::to_string(line) + ", column "
                                     + std::to_string(i - lineStart + 1),
                                 "nested more than " + std::to_string(limits.maxDepth)
                                     + " levels deep (the limit for " + limits.kind + ")");
            Open open;
            open.object = c == '{';
            open.expectKey = open.object;
            if (!stack.empty())
                open.name
                    = stack.back().object ? stack.back().key : std::to_string(stack.back().commas);
            stack.push_back(std::move(open));
            break;
        }
        case ']':
        case '}':
            if (!stack.empty())
                stack.pop_back();
            break;
        case ',':
            if (stack.empty())
                break;
            // n commas separate n + 1 entries.
            if (++stack.back().commas >= limits.maxItems)
                throw InputError(file, "at " + pointerOf(stack),
                                 "more than " + std::to_string(limits.maxItems)
                                     + " entries (the limit for one array or object in "
                                     + limits.kind + ")");
            stack.back().expectKey = stack.back().object;
            break;
        default:
            break;
        }
    }
}

} // namespace clab
