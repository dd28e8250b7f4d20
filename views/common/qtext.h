#pragma once

#include <QString>

#include <string>

namespace clab::views {

// The model's strings are UTF-8; QT_NO_CAST_FROM_ASCII wants every conversion spelt out.
inline QString toQString(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace clab::views
