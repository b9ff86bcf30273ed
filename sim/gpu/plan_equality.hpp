#pragma once
// Whether two plans are the same work: every launch's fields and every CTA's
// program equal. The engine is deterministic, so such plans simulate to the
// same result; approximate `auto` simulates one of them (Stream-K's modes on
// a grid of fewer tiles than SMs lower alike).

#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

bool same_work(const KernelPlan& a, const KernelPlan& b);

}  // namespace tilesim::gpu
