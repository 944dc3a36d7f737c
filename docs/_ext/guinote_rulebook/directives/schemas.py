"""``guinote-schemas``: every JSON Schema of the wire protocol: title, description, members
and the raw schema. (Schema texts are the protocol's and stay in English.)"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docutils import nodes

from guinote_rulebook.data import schemas_dir
from guinote_rulebook.directives.base import RulebookDirective, logger
from guinote_rulebook.locale import _
from guinote_rulebook.nodes import details, summary
from guinote_rulebook.render import (
    Cell,
    code_block,
    field_item,
    literal,
    note,
    para,
    rubric,
    section,
    std_ref,
    table,
    text_para,
)


def schema_ref(label: str, text: str, docname: str) -> nodes.Node:
    wrapper = nodes.inline(classes=["guinote-code"])
    wrapper += std_ref(label, text, docname)
    return wrapper


def _ref_target(ref: str, current: str) -> tuple[str, str] | None:
    """``common.json#/$defs/id`` (or ``#/$defs/id`` inside ``current``) -> (file stem, definition)."""
    document, _, pointer = ref.partition("#")
    parts = pointer.strip("/").split("/")
    if len(parts) != 2 or parts[0] not in ("$defs", "definitions"):
        return None
    stem = Path(document).stem if document else current
    return stem, parts[1]


def _definition_label(stem: str, name: str) -> str:
    return f"schema-{stem}-{name}"


def _schema_type(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any" if schema is True else "—"
    if "$ref" in schema:
        return str(schema["$ref"]).rpartition("/")[2]
    if "const" in schema:
        return f"= {json.dumps(schema['const'], ensure_ascii=False)}"
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(item, ensure_ascii=False) for item in schema["enum"])
    for combinator in ("oneOf", "anyOf", "allOf"):
        if combinator in schema:
            parts = [_schema_type(part) for part in schema[combinator]]
            return f"{combinator}: " + " | ".join(parts)
    kind = schema.get("type", "any")
    text = " or ".join(kind) if isinstance(kind, list) else str(kind)
    if text == "array" and "items" in schema:
        text += f" of {_schema_type(schema['items'])}"
    return text


@dataclass
class PropertyInfo:
    schemas: list[Any] = field(default_factory=list)
    required: str = ""


def collect_properties(schema: dict[str, Any]) -> dict[str, PropertyInfo]:
    """The properties of an object schema, including those of its if/then/else and
    oneOf/anyOf/allOf branches; ``required`` is "yes" (always) or "in some cases"."""
    found: dict[str, PropertyInfo] = {}

    def walk(node: Any, top: bool) -> None:
        if not isinstance(node, dict):
            return
        for name, prop in (node.get("properties") or {}).items():
            found.setdefault(name, PropertyInfo()).schemas.append(prop)
        for name in node.get("required", []):
            info = found.setdefault(name, PropertyInfo())
            if top:
                info.required = "yes"
            elif not info.required:
                info.required = "in some cases"
        for key in ("then", "else"):
            walk(node.get(key), False)
        for key in ("oneOf", "anyOf"):
            for branch in node.get(key, []):
                walk(branch, False)
        for branch in node.get("allOf", []):
            walk(branch, top)

    walk(schema, True)
    return found


#: The protocol's commands in the order of a session; other schema files follow, by name.
SCHEMA_ORDER = ("hello", "start", "legal", "apply", "state", "observe", "end", "stop", "common")


def _schema_order(path: Path) -> tuple[int, str]:
    command = path.name.split(".")[0]
    position = SCHEMA_ORDER.index(command) if command in SCHEMA_ORDER else len(SCHEMA_ORDER)
    return position, path.name


class SchemasDirective(RulebookDirective):
    definitions: dict[tuple[str, str], dict[str, Any]]
    """Every JSON Schema of the wire protocol: title, description, properties, raw schema."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        folder = schemas_dir(self.env)
        files = sorted(folder.glob("*.json"), key=_schema_order) if folder.is_dir() else []
        if not files:
            return self.finish(
                [note(text_para(_("No JSON Schema has been published yet (adapters/schemas/ is empty).")))]
            )
        schemas: dict[str, tuple[Path, dict[str, Any]]] = {}
        for path in files:
            self.env.note_dependency(str(path))
            try:
                schema = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                logger.warning("guinote-schemas: %s: %s", path.name, error, location=self.get_location())
                continue
            if not isinstance(schema, dict):
                logger.warning("guinote-schemas: %s is not a JSON object", path.name, location=self.get_location())
                continue
            schemas[path.stem] = (path, schema)
        self.definitions = {
            (stem, name): definition
            for stem, (_, schema) in schemas.items()
            for name, definition in (schema.get("$defs") or schema.get("definitions") or {}).items()
            if isinstance(definition, dict)
        }
        return self.finish([self.schema_section(stem, path, schema) for stem, (path, schema) in schemas.items()])

    def schema_section(self, stem: str, path: Path, schema: dict[str, Any]) -> nodes.section:
        title = str(schema.get("title") or path.stem)
        node = section(nodes.make_id(f"schema-{stem}"), self.plain_title(nodes.Text(title)), self.state.document)
        node["classes"].append("guinote-schema")
        if schema.get("description"):
            node += text_para(str(schema["description"]))
        fields = nodes.field_list()
        fields += field_item("File", para(literal(f"adapters/schemas/{path.name}")))
        if schema.get("$id"):
            fields += field_item("$id", para(literal(str(schema["$id"]))))
        if "type" in schema:
            fields += field_item("Type", para(literal(_schema_type(schema))))
        if schema.get("additionalProperties") is False:
            fields += field_item(
                "Other members", para(nodes.Text("not allowed, except those matching a pattern below"))
            )
        node += fields
        node += self.properties(schema, stem, "Members")
        for name, definition in (schema.get("$defs") or schema.get("definitions") or {}).items():
            if not isinstance(definition, dict):
                continue
            heading = f"{name} ({path.name})"
            heading_node = rubric(heading, ["guinote-schema-definition"])
            label = _definition_label(stem, name)
            heading_node["ids"].append(nodes.make_id(label))
            heading_node["names"].append(label)
            self.state.document.note_explicit_target(heading_node, heading_node)
            node += heading_node
            if definition.get("description"):
                node += text_para(str(definition["description"]))
            node += para(nodes.Text("Type: "), *self.type_nodes(definition, stem))
            node += self.properties(definition, stem, None)
        raw = details()
        raw += summary("", _("The schema {name}").format(name=path.name))
        raw += code_block(json.dumps(schema, indent=2, ensure_ascii=False), "json")
        node += raw
        return node

    def type_nodes(self, schema: Any, stem: str) -> list[nodes.Node]:
        text = _schema_type(schema)
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if ref is None and isinstance(schema, dict) and isinstance(schema.get("items"), dict):
            ref = schema["items"].get("$ref")
            if ref is not None:
                target = _ref_target(str(ref), stem)
                if target is not None:
                    label = _definition_label(*target)
                    return [
                        nodes.Text("array of "),
                        schema_ref(label, target[1], self.env.docname),
                    ]
        if ref is None:
            return [literal(text)]
        target = _ref_target(str(ref), stem)
        if target is None:
            return [literal(str(ref))]
        return [schema_ref(_definition_label(*target), target[1], self.env.docname)]

    def description(self, schema: Any, stem: str) -> str:
        if not isinstance(schema, dict):
            return ""
        if schema.get("description"):
            return str(schema["description"])
        ref = schema.get("$ref") or (schema.get("items") or {}).get("$ref")
        target = _ref_target(str(ref), stem) if ref else None
        definition = self.definitions.get(target) if target else None
        return str(definition.get("description", "")) if definition else ""

    def properties(self, schema: dict[str, Any], stem: str, heading: str | None) -> list[nodes.Node]:
        props = collect_properties(schema)
        patterns = schema.get("patternProperties") or {}
        if not props and not patterns:
            return []
        rows: list[list[Cell]] = []
        for name, info in props.items():
            typed = [s for s in info.schemas if isinstance(s, dict) and set(s) - {"description", "const"}]
            consts = [s["const"] for s in info.schemas if isinstance(s, dict) and "const" in s]
            if typed:
                type_cell: Cell = self.type_nodes(typed[0], stem)
            elif consts:
                unique = list(dict.fromkeys(json.dumps(c, ensure_ascii=False) for c in consts))
                type_cell = literal(("= " if len(unique) == 1 else "one of ") + ", ".join(unique))
            else:
                type_cell = literal("any")
            description = next((self.description(s, stem) for s in info.schemas if self.description(s, stem)), "")
            rows.append([literal(name), type_cell, info.required, description])
        for pattern, prop in patterns.items():
            description = str(prop.get("description", "")) if isinstance(prop, dict) else ""
            rows.append(
                [[nodes.Text("names matching "), literal(pattern)], literal(_schema_type(prop)), "", description]
            )
        result: list[nodes.Node] = []
        if heading:
            result.append(rubric(heading))
        result.append(
            table([_("Member"), _("Type"), _("Required"), _("Description")], rows, ["guinote-schema-properties"])
        )
        return result
