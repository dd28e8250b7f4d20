#include "cluster/submesh.h"

#include <algorithm>
#include <bit>

namespace clab::cluster {

FreeBoards::FreeBoards(int x, int y, const std::vector<std::uint8_t> &taken)
    : m_x(x)
    , m_y(y)
    , m_words(std::size_t((y + 63) / 64))
    , m_bits(std::size_t(x) * m_words, 0)
{
    for (int r = 0; r < x; ++r) {
        for (int c = 0; c < y; ++c) {
            if (!taken[std::size_t(r) * std::size_t(y) + std::size_t(c)]) {
                m_bits[word(r, c)] |= std::uint64_t(1) << (c & 63);
                ++m_free;
            }
        }
    }
}

int FreeBoards::rowFree(int r) const
{
    int n = 0;
    for (std::size_t k = 0; k < m_words; ++k)
        n += std::popcount(m_bits[std::size_t(r) * m_words + k]);
    return n;
}

bool FreeBoards::find(int h, int w, std::vector<int> &rows, std::vector<int> &cols) const
{
    if (h > m_x || w > m_y || 1LL * h * w > m_free)
        return false;
    return firstFit(h, w, rows, cols) || peel(h, w, rows, cols);
}

bool FreeBoards::firstFit(int h, int w, std::vector<int> &rows, std::vector<int> &cols) const
{
    std::vector<std::uint64_t> common(m_words, ~std::uint64_t(0)), next(m_words);
    rows.clear();
    for (int r = 0; r < m_x && int(rows.size()) < h; ++r) {
        int n = 0;
        for (std::size_t k = 0; k < m_words; ++k) {
            next[k] = common[k] & m_bits[std::size_t(r) * m_words + k];
            n += std::popcount(next[k]);
        }
        if (n >= w) {
            common.swap(next);
            rows.push_back(r);
        }
    }
    if (int(rows.size()) < h)
        return false;
    cols.clear();
    for (int c = 0; c < m_y && int(cols.size()) < w; ++c) {
        if ((common[std::size_t(c >> 6)] >> (c & 63)) & 1u)
            cols.push_back(c);
    }
    return true;
}

bool FreeBoards::peel(int h, int w, std::vector<int> &rows, std::vector<int> &cols) const
{
    std::vector<int> inRows, inCols;
    for (int r = 0; r < m_x; ++r) {
        if (rowFree(r) >= w)
            inRows.push_back(r);
    }
    if (int(inRows.size()) < h)
        return false;
    for (int c = 0; c < m_y; ++c) {
        int n = 0;
        for (int r : inRows)
            n += isFree(r, c);
        if (n >= h)
            inCols.push_back(c);
    }
    if (int(inCols.size()) < w)
        return false;
    // Taken boards of each row within the columns left, and of each column within the rows.
    std::vector<int> rowTaken(std::size_t(m_x), 0), colTaken(std::size_t(m_y), 0);
    long long takenLeft = 0;
    for (int r : inRows) {
        for (int c : inCols) {
            if (!isFree(r, c)) {
                ++rowTaken[std::size_t(r)];
                ++colTaken[std::size_t(c)];
                ++takenLeft;
            }
        }
    }
    while (takenLeft > 0) {
        auto worst = [](const std::vector<int> &in, const std::vector<int> &taken) {
            std::size_t at = 0;
            for (std::size_t i = 1; i < in.size(); ++i) {
                if (taken[std::size_t(in[i])] > taken[std::size_t(in[at])])
                    at = i;
            }
            return at;
        };
        const bool canRow = int(inRows.size()) > h, canCol = int(inCols.size()) > w;
        if (!canRow && !canCol)
            return false;
        const std::size_t r = worst(inRows, rowTaken), c = worst(inCols, colTaken);
        // Compare shares: a row's taken boards over its length (the columns left), and so on.
        const double rowShare
            = canRow ? double(rowTaken[std::size_t(inRows[r])]) / inCols.size() : -1;
        const double colShare
            = canCol ? double(colTaken[std::size_t(inCols[c])]) / inRows.size() : -1;
        if (rowShare >= colShare) {
            const int gone = inRows[r];
            for (int cc : inCols) {
                if (!isFree(gone, cc)) {
                    --colTaken[std::size_t(cc)];
                    --takenLeft;
                }
            }
            inRows.erase(inRows.begin() + std::ptrdiff_t(r));
        } else {
            const int gone = inCols[c];
            for (int rr : inRows) {
                if (!isFree(rr, gone)) {
                    --rowTaken[std::size_t(rr)];
                    --takenLeft;
                }
            }
            inCols.erase(inCols.begin() + std::ptrdiff_t(c));
        }
    }
    rows.assign(inRows.begin(), inRows.begin() + h);
    cols.assign(inCols.begin(), inCols.begin() + w);
    return true;
}

void FreeBoards::take(const std::vector<int> &rows, const std::vector<int> &cols)
{
    for (int r : rows) {
        for (int c : cols) {
            m_bits[word(r, c)] &= ~(std::uint64_t(1) << (c & 63));
            --m_free;
        }
    }
}

} // namespace clab::cluster
