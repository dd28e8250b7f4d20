#pragma once

#include <cstdint>
#include <vector>

namespace clab::cluster {

// The free boards of a HammingMesh grid, one bit per board, and the search for a sub-mesh: any
// `h` rows and any `w` columns whose h·w crossings are all free and healthy. In a Hamming graph
// the rows and columns need not be adjacent; a job on them still has full row and column
// networks of its own (HammingMesh, SC22, section "virtual sub-HxMeshes").
class FreeBoards
{
public:
    // taken: x·y flags, row-major (faulty or allocated).
    FreeBoards(int x, int y, const std::vector<std::uint8_t> &taken);

    // Finds h rows and w columns (each sorted) or returns false. First rows in order, keeping
    // the columns free in all of them (first fit, compact); when that fails, peeling: start
    // from every row and column that could take part and drop, one at a time, the row or column
    // with the largest share of taken boards, until what is left is free.
    bool find(int h, int w, std::vector<int> &rows, std::vector<int> &cols) const;
    void take(const std::vector<int> &rows, const std::vector<int> &cols);
    long long freeCount() const { return m_free; }

private:
    bool isFree(int r, int c) const { return (m_bits[word(r, c)] >> (c & 63)) & 1u; }
    std::size_t word(int r, int c) const { return std::size_t(r) * m_words + std::size_t(c >> 6); }
    int rowFree(int r) const;
    bool firstFit(int h, int w, std::vector<int> &rows, std::vector<int> &cols) const;
    bool peel(int h, int w, std::vector<int> &rows, std::vector<int> &cols) const;

    int m_x, m_y;
    std::size_t m_words; // 64-bit words per row
    std::vector<std::uint64_t> m_bits;
    long long m_free = 0;
};

} // namespace clab::cluster
