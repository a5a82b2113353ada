#pragma once
#ifdef IMPACT_FORBID_PYTHON // defined for the stages that may not use python (src/CMakeLists.txt)
#error "this stage may not use python (docs/architecture.md, allowed edges)"
#endif
// Every public header of the python stage, for code written before python.hpp was split by topic
// (issue 12). Include the topic header you need instead; this file goes once no file includes it.
#include "impact/python/compile_check.hpp"
#include "impact/python/facts.hpp"
#include "impact/python/project_facts.hpp"
#include "impact/python/shape.hpp"
#include "impact/python/text_reads.hpp"
