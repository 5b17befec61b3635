from app.registries.llama_cpp_arch import parse

FIXTURE = """
#include "llama-arch.h"

static const std::map<llm_arch, const char *> LLM_ARCH_NAMES = {
    { LLM_ARCH_TOYLM,       "toylm"      },
    { LLM_ARCH_TOY_MOE,     "toy-moe"    }, // a comment after the row
    // { LLM_ARCH_COMMENTED, "commented" },
    { LLM_ARCH_UNKNOWN,     "(unknown)"  },
};

static const std::map<llm_kv, const char *> LLM_KV_NAMES = {
    { LLM_KV_GENERAL_TYPE, "general.type" },
};
"""


def test_parse_reads_each_row_of_the_table() -> None:
    assert parse(FIXTURE) == {"TOYLM": "toylm", "TOY_MOE": "toy-moe"}


def test_parse_without_the_table_is_empty() -> None:
    assert parse('static const int LLM_ARCH_NAMES_MISSING = 0;\n{ LLM_ARCH_X, "x" }') == {}
