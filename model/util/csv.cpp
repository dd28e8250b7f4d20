#include "util/csv.h"

#include "util/inputerror.h"

namespace clab {

CsvReader::CsvReader(std::string_view text, std::string fileName)
    : m_text(text)
    , m_fileName(std::move(fileName))
{
}

bool CsvReader::next()
{
    m_record.assign(1, {});
    bool quoted = false;
    bool recordHasText = false;
    int quoteLine = 0;
    m_line = m_nextLine;
    for (; m_pos < m_text.size(); ++m_pos) {
        const char c = m_text[m_pos];
        if (quoted) {
            if (c == '"') {
                if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '"') {
                    m_record.back() += '"';
                    ++m_pos;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n')
                    ++m_nextLine;
                m_record.back() += c;
            }
            continue;
        }
        switch (c) {
        case '"':
            quoted = true;
            quoteLine = m_nextLine;
            recordHasText = true;
            break;
        case ',':
            m_record.emplace_back();
            recordHasText = true;
            break;
        case '\r':
            break;
        case '\n':
            ++m_nextLine;
            if (recordHasText) {
                ++m_pos;
                return true;
            }
            m_line = m_nextLine; // a blank line: the record starts on the next one
            break;
        default:
            m_record.back() += c;
            recordHasText = true;
        }
    }
    if (quoted)
        throw InputError(m_fileName, "line " + std::to_string(quoteLine),
                         "a quoted field is never closed (expected a closing \")");
    return recordHasText;
}

CsvTable CsvTable::parse(std::string_view text, const std::string &fileName)
{
    CsvTable t;
    t.m_fileName = fileName;
    CsvReader reader(text, fileName);
    if (!reader.next())
        throw InputError(fileName, "line 1", "empty file, expected a header row");
    t.m_header = reader.record();
    for (std::size_t c = 0; c < t.m_header.size(); ++c)
        t.m_columns.emplace(t.m_header[c], c);
    while (reader.next()) {
        t.m_rows.push_back(reader.record());
        t.m_lines.push_back(reader.line());
    }
    return t;
}

const std::string &CsvTable::field(std::size_t row, std::string_view column) const
{
    static const std::string empty;
    const auto it = m_columns.find(std::string(column));
    if (it == m_columns.end() || row >= m_rows.size() || it->second >= m_rows[row].size())
        return empty;
    return m_rows[row][it->second];
}

} // namespace clab
