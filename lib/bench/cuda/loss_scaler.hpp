// Dynamic loss scaling for FP16 training, as PyTorch's torch.amp.GradScaler does it with its defaults.
// FP16 keeps values down to 6·10⁻⁸ (2⁻²⁴, subnormal; full precision only from 2⁻¹⁴), and the gradients
// of a language model's loss lie largely below that: the loss's gradient is multiplied by `scale`
// before the backward pass, so that the products' FP16 operands stay representable, and the weight
// gradients are divided by it before the update. A scale so large that some value overflows FP16's
// 65,504 makes a gradient infinite or NaN: that step is skipped and the scale halved; after
// `growth_interval` steps in a row without one it doubles. Host code, shared with the tests.
#pragma once

namespace payback::bench::gpu {

struct LossScaler {
    static constexpr float initial_scale = 65536.0f;  // 2^16, GradScaler's init_scale
    static constexpr float growth_factor = 2.0f, backoff_factor = 0.5f;
    static constexpr int growth_interval = 2000;

    float scale = initial_scale;  ///< the factor of the next step's loss gradient
    int clean_steps = 0;          ///< steps since the last overflow (or growth)

    /// After a backward pass at `scale`: whether its gradients are applied (all were finite). Moves the
    /// scale for the next step.
    bool apply(bool gradients_finite) {
        if (!gradients_finite) {
            scale *= backoff_factor;
            clean_steps = 0;
            return false;
        }
        if (++clean_steps == growth_interval) {
            scale *= growth_factor;
            clean_steps = 0;
        }
        return true;
    }
};

}  // namespace payback::bench::gpu
