#pragma once

#include <stdexcept>
#include <string>

namespace clab {

// Bad input: a file the user gave us is malformed. what() names the file, the place in it (a line
// or a JSON pointer) and what was expected; the CLI prints it and exits with status 1.
class InputError : public std::runtime_error
{
public:
    InputError(const std::string &file, const std::string &place, const std::string &message)
        : std::runtime_error(file + (place.empty() ? "" : ": " + place) + ": " + message)
        , m_file(file)
        , m_place(place)
        , m_message(message)
    {
    }

    const std::string &file() const { return m_file; }
    const std::string &place() const { return m_place; }
    const std::string &message() const { return m_message; }

private:
    std::string m_file;
    std::string m_place;
    std::string m_message;
};

} // namespace clab
