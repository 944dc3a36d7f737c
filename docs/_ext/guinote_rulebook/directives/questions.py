"""``guinote-questions``: every open question (B-nn disagreements, C-nn gaps) with the flags
and rules it concerns and those that cite it."""

from __future__ import annotations

from collections import Counter

from docutils import nodes

from guinote_conformance.catalogue.rulebook import CODE_IN_TEXT, question_sort_key
from guinote_rulebook.data import engine_specs
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.locale import _, word
from guinote_rulebook.render import (
    badge,
    field_item,
    flag_ref,
    joined,
    literal,
    note,
    para,
    rule_ref,
    section,
    text_para,
)


class QuestionsDirective(RulebookDirective):
    def run(self) -> list[nodes.Node]:
        self.note_engine_dependency()
        data = self.data()
        docname = self.env.docname
        where = self.get_location()
        if data.questions is None:
            return self.finish([note(text_para(_("The rule index has no questions.toml yet.")))])
        flags, _profiles = engine_specs()
        cited_by_flags: dict[str, list[str]] = {}
        for flag_name, spec in flags.items():
            for code in CODE_IN_TEXT.findall(spec.disagreement):
                cited_by_flags.setdefault(code, []).append(flag_name)
        counts = Counter(question.kind for question in data.questions.values())
        result: list[nodes.Node] = [
            text_para(
                _(
                    "{total} questions: {disagreements} disagreements between sources (B-nn) and {gaps} gaps "
                    "no source settles (C-nn)."
                ).format(total=len(data.questions), disagreements=counts["disagreement"], gaps=counts["gap"]),
                ["guinote-legend"],
            )
        ]
        for order, code in enumerate(sorted(data.questions, key=question_sort_key)):
            question = data.questions[code]
            anchor = self.domain.note_object("question", code, docname, question.title, order=order)
            node = section(anchor, self.data_title(code, question.title), self.state.document)
            node["classes"] += ["guinote-question", f"guinote-question-{question.kind}"]
            if question.summary:  # a question derived from its flag has none: the flag's readings say it
                node += self.data_para(question.summary, data, ("guinote-question-summary",))
            fields = nodes.field_list(classes=["guinote-question-fields"])
            fields += field_item(_("Kind"), para(badge(word(question.kind), f"question-{question.kind}")))
            if question.flags:
                flag_nodes: list[nodes.Node] = []
                for name in question.flags:
                    if name not in flags:
                        logger.warning(
                            "guinote: question %s names flag %r, which reference_engine/profiles.toml does not define",
                            code,
                            name,
                            location=where,
                        )
                        flag_nodes.append(literal(name))
                    else:
                        flag_nodes.append(flag_ref(name, docname))
                fields += field_item(_("Flag"), para(*joined(flag_nodes)))
            if question.rules:
                rule_nodes: list[nodes.Node] = []
                for rule_id in question.rules:
                    if rule_id not in data.rules:
                        logger.warning("guinote: question %s names unknown rule %s", code, rule_id, location=where)
                        rule_nodes.append(literal(rule_id))
                    else:
                        rule_nodes.append(rule_ref(rule_id, docname))
                fields += field_item(_("Rules"), para(*joined(rule_nodes)))
            citing = [rule_ref(rule_id, docname) for rule_id in data.citing_rules(code)]
            citing += [flag_ref(name, docname) for name in cited_by_flags.get(code, [])]
            if citing:
                fields += field_item(_("Cited by"), para(*joined(citing)))
            node += fields
            result.append(node)
        return self.finish(result)
