from app.registries.ollama_convert import parse

FIXTURE = """
package convert

func ConvertAdapter(arch string) {
	switch arch {
	case "toy":
		conv = &toyAdapter{}
	}
}

func ConvertModel(p ModelParameters) error {
	var conv ModelConverter
	switch p.Architectures[0] {
	case "ToyForCausalLM":
		conv = &toyModel{}
	case "ToyMoeForCausalLM", "ToyMoeV2ForCausalLM":
		conv = &toyMoeModel{Architecture: p.Architectures[0]}
	case "ToyCommentOnly":
		// nothing built here
	default:
		return fmt.Errorf("unsupported architecture %q", p.Architectures[0])
	}
	return nil
}
"""


def test_parse_reads_the_import_switch_only() -> None:
    assert parse(FIXTURE) == {
        "ToyForCausalLM": "toyModel",
        "ToyMoeForCausalLM": "toyMoeModel",
        "ToyMoeV2ForCausalLM": "toyMoeModel",
    }


def test_parse_without_the_switch_is_empty() -> None:
    assert parse('switch arch {\ncase "ToyForCausalLM":\n\tconv = &toyModel{}\n}') == {}
