#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clab::llm {

// A decoder-only transformer given by its shape, as `llm:layers=L,hidden=H,heads=A,seq=S
// [,ffn=F][,vocab=V][,kv_heads=K][,mlp=gelu|swiglu]` or a named preset
// (resources/workloads/llm/presets.json). Formulas and their sources: model/llm/LLM.md.
enum class Mlp {
    Gelu,  // two matrices h x F and F x h, biases, LayerNorm, learned positions (GPT-3, Megatron)
    SwiGlu // three matrices (gate, up, down), no biases, RMSNorm, rotary positions (Llama)
};

struct Shape
{
    std::string name; // preset id, or the text it was parsed from
    long long layers = 0;
    long long hidden = 0;
    long long heads = 0;
    long long seq = 0;
    long long ffn = 0;     // 4 h unless given
    long long vocab = 0;   // 51,200 (Megatron's padded GPT-2 vocabulary) unless given
    long long kvHeads = 0; // heads unless given (grouped-query attention when fewer)
    Mlp mlp = Mlp::Gelu;
    bool tiedEmbeddings = true; // the output layer reuses the input embedding (GPT, Megatron)
    std::string source;         // where a preset's figures come from
    long long globalBatch = 0;  // a preset's published global batch in sequences; 0: none
};

// A preset id ("gpt3-175b") or an `llm:` shape. Throws InputError naming the field for an unknown
// key, a missing or non-positive size, or a preset that does not exist (with the known ids).
Shape parseShape(std::string_view text);
// Every preset, in file order.
const std::vector<Shape> &presets();

// Weights of one transformer layer, of the input embedding (with learned positions for Gelu),
// and of the output layer when not tied (with the final norm).
double layerParameters(const Shape &s);
double embeddingParameters(const Shape &s);
double outputParameters(const Shape &s);
double parameters(const Shape &s);

// Forward matrix FLOPs of one layer for one sequence: the weight GEMMs (2 x weights x tokens) and
// the two attention products (QK^T and attention x V, 2 s^2 h each).
double layerForwardFlops(const Shape &s);
double attentionProductFlops(const Shape &s); // the 4 s^2 h part alone
double logitForwardFlops(const Shape &s);     // 2 s h V

enum class Recompute { None, Selective, Full };
const char *recomputeName(Recompute r);

// How the attention's softmax runs: unfused, its a x s scores a tensor in HBM (Megatron-LM in
// 2021-22), or fused in on-chip memory (FlashAttention, Dao et al. 2022; Megatron-LM's and
// NeMo's default since), which keeps no scores and moves none through HBM.
enum class Attention { Unfused, Fused };

// FLOPs of one training iteration of `batch` sequences: the model's own (3 x forward: MFU) and
// what the hardware runs with recomputation (HFU). With Full recomputation and the GPT shape this
// is Narayanan et al. 2021's 96 B s l h^2 (1 + s/(6h) + V/(16 l h)).
double modelFlops(const Shape &s, double batch);
double hardwareFlops(const Shape &s, double batch, Recompute r);

// Activation bytes one layer keeps for one micro-batch of `micro` sequences, split `tensor` ways
// (Korthikanti et al. 2022, Table 2, at 16-bit activations).
double layerActivationBytes(const Shape &s, long long micro, long long tensor, Recompute r,
                            bool sequenceParallel, Attention attention = Attention::Unfused);

// HBM bytes one GPU's element-wise kernels of one layer read and write for one micro-batch,
// forward, backward and any recomputed forward: LayerNorms, bias-dropout-adds, the MLP's
// activation, the attention's softmax and dropout (LLM.md, "Element-wise traffic").
double layerElementwiseBytes(const Shape &s, long long micro, long long tensor, Recompute r,
                             bool sequenceParallel, Attention attention = Attention::Unfused);

// HBM bytes one GPU's attention products (Q K^T and the probabilities times V) of one layer move
// for one micro-batch: the a x s x s score matrices they write and read, 2 B a score and pass;
// none when attention is fused (LLM.md, "Attention products").
double layerProductBytes(const Shape &s, long long micro, long long tensor, Recompute r,
                         Attention attention = Attention::Unfused);

} // namespace clab::llm
