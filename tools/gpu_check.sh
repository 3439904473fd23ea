#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, in one run (no machine here has one; run it where one is lent):
#   1. the CUDA test cases ([cuda]: the GPU trainer's gradients and steps against the CPU trainer's);
#   2. `payback bench --device cuda` for both workloads over a range of batches, with the profile;
#   3. the same training steps in PyTorch on the same GPU (perf/pytorch_training_step.py --device cuda);
#   4. llm-decode on the GPU in each weight format (F16, Q8_0, Q4_0) at batch 1 and 8, with the CPU's
#      figures beside it (the decode rate against the GPU's bandwidth limit is in the table);
#   5. gpt-small on the GPU in fp32, bf16 and fp16: payback bench, and PyTorch's step on the same GPU
#      (autocast for bf16 and fp16, GradScaler for fp16) where torch with CUDA imports; the losses after
#      k steps against PyTorch's fixture and bf16 and fp16 against fp32 are test cases of step 1 ([cuda][gpt]);
#   6. compute-sanitizer's memcheck over a short bench of every workload, and memcheck and racecheck
#      over gpt-small's kernels on the tiny fixture config, where it is installed.
# Usage: tools/gpu_check.sh BIN_DIR OUT_DIR   (BIN_DIR holds payback, payback_tests, libpayback_cuda.so)
set -uo pipefail
bin=$(cd "$1" && pwd) out=$2 status=0
batches=${GPU_CHECK_BATCHES:-4,64,256,1024,4096}
step() { echo; echo "=== $*"; }

step "GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv

step "CUDA test cases"
"$bin/payback_tests" "[cuda]" --durations yes || status=1

step "payback bench --device cuda (batches $batches)"
"$bin/payback" bench --device cuda --workload all --batch "$batches" --repeats 5 --seconds 0.3 \
    --out "$out/profile-cuda.json" || status=1
"$bin/payback" bench --device cuda --workload all --batch "$batches" --repeats 3 --seconds 0.3 --json \
    -o "$out/bench-cuda.json" || status=1

step "PyTorch $(python3 -c 'import torch; print(torch.__version__)') on the same GPU"
for workload in cifar10-tutorial mlp; do
    for batch in ${batches//,/ }; do
        python3 perf/pytorch_training_step.py --device cuda --workload "$workload" --batch "$batch" \
            --threads 1 --seconds 0.3 --runs 5 --warmup 0.5 || status=1
    done
done | tee "$out/pytorch-cuda.jsonl"
# payback's convolutions stay FP32 (ours or cuDNN's, whichever is faster at each shape): PyTorch like for like.
for batch in ${batches//,/ }; do
    python3 perf/pytorch_training_step.py --device cuda --workload cifar10-tutorial --batch "$batch" \
        --threads 1 --seconds 0.3 --runs 5 --warmup 0.5 --conv-tf32 off || status=1
done | tee "$out/pytorch-cuda-fp32-conv.jsonl"

step "llm-decode on the GPU and the CPU (f16, q8_0, q4_0; batch 1 and 8; context 512)"
for quant in f16 q8_0 q4_0; do
    "$bin/payback" bench --device all --workload llm-decode --quant "$quant" --context 512 --batch 1,8 \
        --repeats 3 --seconds 0.5 --json -o "$out/llm-decode-$quant.json" || status=1
    cat "$out/llm-decode-$quant.json"
done

gpt_batches=${GPU_CHECK_GPT_BATCHES:-8,32}
step "gpt-small on the GPU (fp32, bf16, fp16; batches $gpt_batches)"
for precision in fp32 bf16 fp16; do
    "$bin/payback" bench --device cuda --workload gpt-small --precision "$precision" --batch "$gpt_batches" \
        --repeats 5 --seconds 0.5 --json -o "$out/gpt-small-$precision.json" || status=1
    cat "$out/gpt-small-$precision.json"
done
if python3 -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
    for precision in fp32 bf16 fp16; do
        for batch in ${gpt_batches//,/ }; do
            python3 perf/pytorch_training_step.py --device cuda --workload gpt-small --precision "$precision" \
                --batch "$batch" --threads 1 --seconds 0.5 --runs 5 --warmup 1 || status=1
        done
    done | tee "$out/pytorch-gpt-small.jsonl"
else
    echo "PyTorch with CUDA does not import here: gpt-small is not timed against it"
fi

if command -v compute-sanitizer >/dev/null; then
    step "compute-sanitizer memcheck"
    timeout 180 compute-sanitizer --tool memcheck --error-exitcode 3 \
        "$bin/payback" bench --device cuda --workload all --batch 4,256 --repeats 1 --seconds 0.02 || status=1
    for quant in f16 q8_0 q4_0; do
        timeout 180 compute-sanitizer --tool memcheck --error-exitcode 3 \
            "$bin/payback" bench --device cuda --workload llm-decode --quant "$quant" --llm layers=2,d_model=256,heads=8,kv_heads=2,ffn=512,vocab=1024 \
            --context 64 --batch 1,3 --repeats 1 --seconds 0.02 || status=1
    done
    for tool in memcheck racecheck; do  # gpt-small's kernels on the tiny config of the fixture
        timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 3 \
            "$bin/payback_tests" "the CUDA gpt trainer trains the tiny transformer as PyTorch does*" || status=1
    done
fi
exit $status
