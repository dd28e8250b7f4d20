// Labels of many similar names: the words they all share, and a name without them.
#include "charts/labels.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace clab::charts {

namespace {

std::vector<std::string> words(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

std::string bare(std::string word)
{
    if (!word.empty() && word.back() == ',')
        word.pop_back();
    return word;
}

} // namespace

std::vector<std::string> sharedWords(const std::vector<std::string> &names)
{
    std::vector<std::string> shared;
    if (names.empty())
        return shared;
    for (const std::string &w : words(names.front())) {
        const std::string b = bare(w);
        bool everywhere = true;
        for (const std::string &n : names) {
            bool found = false;
            for (const std::string &x : words(n))
                found = found || bare(x) == b;
            everywhere = everywhere && found;
        }
        if (everywhere && std::find(shared.begin(), shared.end(), b) == shared.end())
            shared.push_back(b);
    }
    // A name made only of shared words would vanish: keep it whole.
    return shared.size() == words(names.front()).size() ? std::vector<std::string>{} : shared;
}

std::string withoutWords(const std::string &name, const std::vector<std::string> &drop)
{
    std::string out;
    for (const std::string &w : words(name)) {
        if (std::find(drop.begin(), drop.end(), bare(w)) != drop.end()) {
            if (w.back() == ',' && !out.empty() && out.back() != ',')
                out += ',';
            continue;
        }
        out += (out.empty() ? "" : " ") + w;
    }
    return out.empty() ? name : out;
}

std::string withoutSize(const std::string &name)
{
    const std::vector<std::string> w = words(name);
    const auto count = [](const std::string &word, std::size_t end) {
        return end > 0 && end <= word.size()
               && std::all_of(word.begin(), word.begin() + std::ptrdiff_t(end),
                              [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    };
    std::string out;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w[i].back() == 'x' && count(w[i], w[i].size() - 1))
            continue;
        if (w[i] == "x" && i + 2 < w.size() && count(w[i + 1], w[i + 1].size())
            && w[i + 2].rfind("node", 0) == 0) {
            i += 2;
            continue;
        }
        out += (out.empty() ? "" : " ") + w[i];
    }
    return out;
}

} // namespace clab::charts
