#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace clab {

// Reads CSV text (RFC 4180: quoted fields may hold commas, doubled quotes and newlines) one
// record at a time, so a reader of a large file holds one row, not the whole table. Blank lines
// are skipped; a record may have any number of fields.
class CsvReader
{
public:
    CsvReader(std::string_view text, std::string fileName);

    // Reads the next record into record(); false at the end of the text. Throws InputError
    // naming the file and line for a quoted field that is never closed.
    bool next();
    const std::vector<std::string> &record() const { return m_record; }
    int line() const { return m_line; } // 1-based line where the current record starts
    const std::string &fileName() const { return m_fileName; }

private:
    std::string_view m_text;
    std::string m_fileName;
    std::size_t m_pos = 0;
    int m_nextLine = 1;
    int m_line = 0;
    std::vector<std::string> m_record;
};

// A CSV table (RFC 4180: quoted fields may hold commas, doubled quotes and newlines). Columns are
// found by header name, so extra columns are ignored and their order does not matter.
class CsvTable
{
public:
    // Throws InputError naming the file and line for an unterminated quote or an empty file.
    static CsvTable parse(std::string_view text, const std::string &fileName);

    const std::vector<std::string> &header() const { return m_header; }
    std::size_t rowCount() const { return m_rows.size(); }
    bool hasColumn(std::string_view name) const { return m_columns.count(std::string(name)) != 0; }
    // The field of a row by column name; empty when the column is absent or the row is short.
    const std::string &field(std::size_t row, std::string_view column) const;
    int lineOf(std::size_t row) const { return m_lines[row]; } // 1-based line where the row starts
    const std::string &fileName() const { return m_fileName; }

private:
    std::string m_fileName;
    std::vector<std::string> m_header;
    std::map<std::string, std::size_t> m_columns;
    std::vector<std::vector<std::string>> m_rows;
    std::vector<int> m_lines;
};

} // namespace clab
