"""``.. guinote-automodules:: reference_engine``: an ``automodule`` section per module."""

from __future__ import annotations

import pkgutil
from importlib import import_module

from docutils import nodes
from sphinx.util.docutils import SphinxDirective
from sphinx.util.parsing import nested_parse_to_nodes


class AutomodulesDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0].strip()
        package = import_module(name)
        modules = [name]
        if hasattr(package, "__path__"):
            modules += [
                f"{name}.{info.name}"
                for info in pkgutil.iter_modules(package.__path__)
                if not info.name.startswith("_")
            ]
        lines: list[str] = []
        for module in modules:
            lines += [module, "~" * len(module), "", f".. automodule:: {module}"]
            if module != name or not hasattr(package, "__path__"):
                lines += ["   :members:", "   :show-inheritance:", "   :ignore-module-all:"]
            lines.append("")
        return nested_parse_to_nodes(self.state, "\n".join(lines), source=self.get_source_info()[0])
