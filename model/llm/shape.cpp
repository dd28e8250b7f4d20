// Transformer shapes: the `llm:` syntax, the presets, parameter and FLOP counts, activation memory.
// Every formula is in model/llm/LLM.md with its source.
#include "llm/shape.h"

#include "util/embedded.h"
#include "util/inputerror.h"
#include "util/jsonreader.h"

#include <charconv>
#include <map>

namespace clab::llm {

namespace {

constexpr const char *kPresetFile = "resources/workloads/llm/presets.json";
constexpr long long kDefaultVocab = 51200; // GPT-2's 50,257 padded by Megatron-LM to 51,200

// Sizes beyond these are typing errors, and keep every product below in a double's exact range.
constexpr long long kMaxSize = 10'000'000;

void fillDefaults(Shape &s)
{
    if (s.ffn == 0)
        s.ffn = 4 * s.hidden;
    if (s.vocab == 0)
        s.vocab = kDefaultVocab;
    if (s.kvHeads == 0)
        s.kvHeads = s.heads;
}

// The rules a shape must meet, each naming its field; `where` is the text or the preset file.
void check(const Shape &s, const std::string &where, const std::string &place)
{
    const auto fail = [&](const char *field, const std::string &message) {
        throw InputError(where, place.empty() ? field : place + "/" + field, message);
    };
    const std::pair<const char *, long long> sizes[]
        = {{"layers", s.layers}, {"hidden", s.hidden}, {"heads", s.heads},     {"seq", s.seq},
           {"ffn", s.ffn},       {"vocab", s.vocab},   {"kv_heads", s.kvHeads}};
    for (const auto &[field, value] : sizes) {
        if (value <= 0)
            fail(field, "must be a positive whole number, found " + std::to_string(value));
        if (value > kMaxSize)
            fail(field,
                 "must be at most " + std::to_string(kMaxSize) + ", found " + std::to_string(value)
                     + (std::string_view(field) == "ffn" ? " (4 x hidden unless given)" : ""));
    }
    if (s.hidden % s.heads != 0)
        fail("heads", "must divide hidden (" + std::to_string(s.hidden) + "), found "
                          + std::to_string(s.heads));
    if (s.kvHeads > s.heads || s.heads % s.kvHeads != 0)
        fail("kv_heads", "must divide heads (" + std::to_string(s.heads) + "), found "
                             + std::to_string(s.kvHeads));
}

std::vector<Shape> readPresets()
{
    const std::string file = kPresetFile;
    const Json root = parseJson(embeddedText(kPresetFile), file);
    ObjectReader top(root, "", file);
    const Json &list = top.array("presets");
    const std::string listPointer = top.pointer("presets");
    top.finish();
    std::vector<Shape> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        ObjectReader r(list[i], childPointer(listPointer, i), file);
        Shape s;
        s.name = r.string("id");
        s.layers = r.integer("layers", 1);
        s.hidden = r.integer("hidden", 1);
        s.heads = r.integer("heads", 1);
        s.seq = r.integer("seq", 1);
        s.ffn = r.integer("ffn", 0, 1);
        s.vocab = r.integer("vocab", 0, 1);
        s.kvHeads = r.integer("kvHeads", 0, 1);
        const std::string mlp = r.string("mlp", "gelu");
        if (mlp != "gelu" && mlp != "swiglu")
            r.fail("mlp", "expected \"gelu\" or \"swiglu\", found \"" + mlp + "\"");
        s.mlp = mlp == "swiglu" ? Mlp::SwiGlu : Mlp::Gelu;
        s.tiedEmbeddings = r.boolean("tiedEmbeddings", true);
        s.globalBatch = r.integer("globalBatch", 0, 1);
        s.source = r.string("source");
        (void)r.string("name", "");
        r.finish();
        fillDefaults(s);
        check(s, file, r.pointer());
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace

const std::vector<Shape> &presets()
{
    // Compiled in: an error here is a build defect and is allowed to propagate.
    static const std::vector<Shape> list = readPresets();
    return list;
}

Shape parseShape(std::string_view text)
{
    const std::string where(text);
    constexpr std::string_view prefix = "llm:";
    if (!text.starts_with(prefix)) {
        for (const Shape &p : presets()) {
            if (p.name == text)
                return p;
        }
        std::string known;
        for (const Shape &p : presets())
            known += (known.empty() ? "" : ", ") + p.name;
        throw InputError(where, "",
                         "neither a preset (" + known
                             + ") nor a shape llm:layers=L,hidden=H,"
                               "heads=A,seq=S[,ffn=F][,vocab=V][,kv_heads=K][,mlp=gelu|swiglu]");
    }
    Shape s;
    s.name = where;
    const std::map<std::string_view, long long Shape::*> fields
        = {{"layers", &Shape::layers},   {"hidden", &Shape::hidden}, {"heads", &Shape::heads},
           {"seq", &Shape::seq},         {"ffn", &Shape::ffn},       {"vocab", &Shape::vocab},
           {"kv_heads", &Shape::kvHeads}};
    std::map<std::string_view, bool> seen;
    std::string_view rest = text.substr(prefix.size());
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const std::size_t eq = item.find('=');
        const std::string_view key = item.substr(0, eq);
        if (eq == std::string_view::npos)
            throw InputError(where, std::string(key), "expected key=value");
        const std::string_view value = item.substr(eq + 1);
        if (seen[key])
            throw InputError(where, std::string(key), "given twice");
        seen[key] = true;
        if (key == "mlp") {
            if (value != "gelu" && value != "swiglu")
                throw InputError(where, "mlp",
                                 "expected gelu or swiglu, found \"" + std::string(value) + "\"");
            s.mlp = value == "swiglu" ? Mlp::SwiGlu : Mlp::Gelu;
            s.tiedEmbeddings = s.mlp == Mlp::Gelu;
            continue;
        }
        const auto field = fields.find(key);
        if (field == fields.end())
            throw InputError(where, std::string(key),
                             "unknown key; the keys are layers, hidden, heads, seq, ffn, vocab, "
                             "kv_heads, mlp");
        long long number = 0;
        const char *end = value.data() + value.size();
        const auto [ptr, ec] = std::from_chars(value.data(), end, number);
        if (ec != std::errc() || ptr != end)
            throw InputError(where, std::string(key),
                             "expected a whole number, found \"" + std::string(value) + "\"");
        if (number <= 0)
            throw InputError(where, std::string(key),
                             "must be a positive whole number, found " + std::to_string(number));
        s.*(field->second) = number;
    }
    for (const char *required : {"layers", "hidden", "heads", "seq"}) {
        if (!seen[required])
            throw InputError(where, required, "missing (layers, hidden, heads and seq are needed)");
    }
    fillDefaults(s);
    check(s, where, "");
    return s;
}

const char *recomputeName(Recompute r)
{
    switch (r) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        return "full";
    }
    return "?";
}

namespace {

// Weights of the layer's matrices: Q and the output projection h x h, K and V h x (h/a)K, and
// the MLP's two (GELU) or three (SwiGLU) h x F matrices.
double layerMatrixWeights(const Shape &s)
{
    const double h = double(s.hidden);
    const double kv = h / double(s.heads) * double(s.kvHeads);
    const double mlpMatrices = s.mlp == Mlp::SwiGlu ? 3 : 2;
    return h * (h + 2 * kv) + h * h + mlpMatrices * h * double(s.ffn);
}

} // namespace

double layerParameters(const Shape &s)
{
    const double h = double(s.hidden);
    if (s.mlp == Mlp::SwiGlu)
        return layerMatrixWeights(s) + 2 * h; // two RMSNorm scales, no biases
    // Biases of QKV (h + 2 kv), projection (h), MLP (F + h) and two LayerNorms (2 x 2h): 13 h at
    // F = 4h without GQA, Narayanan et al. 2021's count.
    const double kv = h / double(s.heads) * double(s.kvHeads);
    return layerMatrixWeights(s) + (h + 2 * kv) + h + double(s.ffn) + h + 4 * h;
}

double embeddingParameters(const Shape &s)
{
    const double positions = s.mlp == Mlp::Gelu ? double(s.seq) : 0; // rotary ones have none
    return (double(s.vocab) + positions) * double(s.hidden);
}

double outputParameters(const Shape &s)
{
    const double finalNorm = (s.mlp == Mlp::Gelu ? 2 : 1) * double(s.hidden);
    return finalNorm + (s.tiedEmbeddings ? 0 : double(s.vocab) * double(s.hidden));
}

double parameters(const Shape &s)
{
    return double(s.layers) * layerParameters(s) + embeddingParameters(s) + outputParameters(s);
}

double attentionProductFlops(const Shape &s)
{
    return 4 * double(s.seq) * double(s.seq) * double(s.hidden);
}

double layerForwardFlops(const Shape &s)
{
    return 2 * double(s.seq) * layerMatrixWeights(s) + attentionProductFlops(s);
}

double logitForwardFlops(const Shape &s)
{
    return 2 * double(s.seq) * double(s.hidden) * double(s.vocab);
}

double modelFlops(const Shape &s, double batch)
{
    // Backward is twice forward (a gradient for the input and one for the weights).
    return 3 * batch * (double(s.layers) * layerForwardFlops(s) + logitForwardFlops(s));
}

double hardwareFlops(const Shape &s, double batch, Recompute r)
{
    double extra = 0; // the forward work run again during backward
    if (r == Recompute::Full)
        extra = double(s.layers) * layerForwardFlops(s);
    else if (r == Recompute::Selective)
        extra = double(s.layers) * attentionProductFlops(s);
    return modelFlops(s, batch) + batch * extra;
}

double layerActivationBytes(const Shape &s, long long micro, long long tensor, Recompute r,
                            bool sequenceParallel, Attention attention)
{
    const double t = double(tensor);
    const double sb = double(s.seq) * double(micro);
    const double sbh = sb * double(s.hidden);
    if (r == Recompute::Full) // only the layer's input is kept
        return sequenceParallel ? 2 * sbh / t : 2 * sbh;
    // Korthikanti et al. 2022 section 4: 10 sbh that tensor parallelism leaves whole (LayerNorm
    // inputs, the inputs of the two blocks, two dropout masks), 24 sbh it splits (Q, K, V, the
    // projection's input, the MLP's 2 x 8 sbh at F = 4h) and 5 a s^2 b of attention scores.
    // A SwiGLU MLP keeps three s x F tensors (gate, up, their product) instead of two.
    const double whole = 10 * sbh;
    const double mlpInner = (s.mlp == Mlp::SwiGlu ? 6 : 4) * sb * double(s.ffn);
    const double split = 8 * sbh + mlpInner;
    const bool kept = r == Recompute::None && attention == Attention::Unfused;
    const double scores = kept ? 5 * double(s.heads) * double(s.seq) * sb : 0;
    if (sequenceParallel)
        return (whole + split + scores) / t;
    return whole + (split + scores) / t;
}

double layerElementwiseBytes(const Shape &s, long long micro, long long tensor, Recompute r,
                             bool sequenceParallel, Attention attention)
{
    // Per token, counting each fused kernel's reads and writes of 2-byte tensors (1-byte masks),
    // as Megatron-LM runs them without fused attention: two LayerNorms (read x, write y; backward
    // reads dy and x, writes dx), two bias-dropout-adds (read input and residual, write the sum
    // and the mask; backward reads dy and the mask, writes dx), the MLP activation (GELU: read
    // and write F; SwiGLU: read gate and up, write F; backward reads what forward read and dy,
    // writes the input gradients), the causal softmax over a x s scores (read, write; backward
    // reads dy and y, writes dx) and its dropout (read, write, mask; backward dy, mask, dx).
    const double h = double(s.hidden);
    const double f = double(s.ffn);
    // Fused attention keeps the scores on chip: none of their traffic reaches HBM.
    const double scores = attention == Attention::Fused ? 0 : double(s.heads) * double(s.seq);
    const bool swiglu = s.mlp == Mlp::SwiGlu;
    const double hForward = 2 * (2 + 2) + 2 * (2 + 2 + 2 + 1);  // 22 h
    const double hBackward = 2 * (2 + 2 + 2) + 2 * (2 + 1 + 2); // 22 h
    const double fForward = swiglu ? 6 : 4;
    const double fBackward = swiglu ? 10 : 6;
    const double aForward = (2 + 2) + (2 + 2 + 1);      // 9 a s
    const double aBackward = (2 + 2 + 2) + (2 + 1 + 2); // 11 a s
    double hBytes = (hForward + hBackward) * h;
    double splitBytes = (fForward + fBackward) * f + (aForward + aBackward) * scores;
    if (r == Recompute::Selective) // the softmax and its dropout run again
        splitBytes += aForward * scores;
    if (r == Recompute::Full) { // the whole forward runs again
        hBytes += hForward * h;
        splitBytes += fForward * f + aForward * scores;
    }
    // Tensor parallelism splits the MLP and the attention heads; the LayerNorms and dropouts on
    // s x h run whole on every GPU of the group unless sequence parallelism splits them too.
    const double t = double(tensor);
    const double tokens = double(s.seq) * double(micro);
    return tokens * ((sequenceParallel ? hBytes / t : hBytes) + splitBytes / t);
}

double layerProductBytes(const Shape &s, long long micro, long long tensor, Recompute r,
                         Attention attention)
{
    if (attention == Attention::Fused)
        return 0;
    // Forward: Q K^T writes the scores, the product with V reads the probabilities. Backward: the
    // gradient of the probabilities is written (dO V^T), the probabilities read again (for dV),
    // and the score gradients read twice (for dQ and dK). Recomputation runs the forward again.
    const double forward = 2 + 2;
    const double backward = 2 + 2 + 2 + 2;
    const double again = r == Recompute::None ? 0 : forward;
    const double scores = double(s.heads) * double(s.seq) * double(s.seq) * double(micro);
    return (forward + backward + again) * scores / double(tensor);
}

} // namespace clab::llm
