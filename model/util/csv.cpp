#include "util/csv.h"

#include "util/inputerror.h"

namespace clab {

CsvTable CsvTable::parse(std::string_view text, const std::string &fileName)
{
    CsvTable t;
    t.m_fileName = fileName;
    std::vector<std::vector<std::string>> records;
    std::vector<int> lines;
    std::vector<std::string> record(1);
    bool quoted = false;
    bool recordHasText = false;
    int line = 1;
    int recordLine = 1;
    int quoteLine = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    record.back() += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n')
                    ++line;
                record.back() += c;
            }
            continue;
        }
        switch (c) {
        case '"':
            quoted = true;
            quoteLine = line;
            recordHasText = true;
            break;
        case ',':
            record.emplace_back();
            recordHasText = true;
            break;
        case '\r':
            break;
        case '\n':
            if (recordHasText || record.size() > 1 || !record[0].empty()) {
                records.push_back(std::move(record));
                lines.push_back(recordLine);
            }
            record.assign(1, {});
            recordHasText = false;
            ++line;
            recordLine = line;
            break;
        default:
            record.back() += c;
            recordHasText = true;
        }
    }
    if (quoted)
        throw InputError(fileName, "line " + std::to_string(quoteLine),
                         "a quoted field is never closed (expected a closing \")");
    if (recordHasText) {
        records.push_back(std::move(record));
        lines.push_back(recordLine);
    }
    if (records.empty())
        throw InputError(fileName, "line 1", "empty file, expected a header row");
    t.m_header = std::move(records.front());
    for (std::size_t c = 0; c < t.m_header.size(); ++c)
        t.m_columns.emplace(t.m_header[c], c);
    t.m_rows.assign(std::make_move_iterator(records.begin() + 1),
                    std::make_move_iterator(records.end()));
    t.m_lines.assign(lines.begin() + 1, lines.end());
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
