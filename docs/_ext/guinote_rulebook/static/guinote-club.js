// "Choose your rules" (directives/club.py): each reading becomes a choice; the club starts from a
// profile, changes what it plays its own way, and prints its rules or downloads the profile file
// for `guinote-conformance run --profile-file`. Everything runs in the page, offline.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const club = document.querySelector(".guinote-club");
  if (!club) {
    return;
  }
  const name = club.querySelector(".guinote-club-name");
  const sheet = club.querySelector(".guinote-club-sheet");
  const preview = club.querySelector(".guinote-club-toml");
  const words = sheet.dataset;
  const flags = [];
  const bases = [];
  const radio = (choice, group, value) => {
    const input = document.createElement("input");
    input.type = "radio";
    input.name = `guinote-club-${group}`;
    input.value = value;
    input.className = "guinote-club-radio";
    input.setAttribute("aria-label", choice.querySelector(".guinote-club-reading").textContent.trim());
    choice.prepend(input);
    return input;
  };
  for (const choice of club.querySelectorAll(".guinote-club-bases .guinote-club-value")) {
    const key = choice.querySelector(".guinote-club-key");
    const input = radio(choice, "base", key.dataset.base);
    input.checked = key.dataset.start === "yes";
    choice.addEventListener("click", () => {
      input.checked = true;
      preset();
    });
    bases.push({ choice, input });
  }
  for (const block of club.querySelectorAll(".guinote-club-flag:not(.guinote-club-bases)")) {
    const key = block.querySelector(".guinote-club-key");
    const flag = key.dataset.flag;
    // "deck=48 ...": the flag changes play only when one of these is chosen (matters_when)
    const when = (key.dataset.when || "").split(" ").filter(Boolean).map((pair) => pair.split("="));
    const question = block.querySelector(".guinote-club-question");
    const values = [];
    for (const choice of block.querySelectorAll(".guinote-club-value")) {
      const valueKey = choice.querySelector(".guinote-club-key");
      const input = radio(choice, flag, valueKey.dataset.value);
      choice.addEventListener("click", (event) => {
        if (event.target.closest("a, summary")) {
          return; // a source's link, or the reading's detail opened
        }
        input.checked = true;
        update();
      });
      values.push({ choice, input, profiles: valueKey.dataset.profiles.split(" ") });
    }
    flags.push({ flag, question, values, when, block });
  }

  // the club's name as typed, on the sheet; the file's name in the letters a profile file takes
  const shownName = () => name.value.trim() || words.default;
  const fileName = () =>
    shownName().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 40) ||
    "our_club";
  const chosen = (entry) => entry.values.find((value) => value.input.checked);
  // a question that makes no difference under the club's other choices is not asked (nor printed);
  // the file still gives its flag a value, as every profile does
  const asked = (entry) =>
    entry.when.length === 0 ||
    entry.when.some(([other, value]) => {
      const owner = flags.find((candidate) => candidate.flag === other);
      return !owner || (chosen(owner) && chosen(owner).input.value === value);
    });
  const base = () => (bases.find((entry) => entry.input.checked) || bases[0]);

  function preset() {
    for (const entry of bases) {
      entry.choice.classList.toggle("guinote-club-chosen", entry.input.checked);
    }
    for (const entry of flags) {
      for (const value of entry.values) {
        value.input.checked = value.profiles.includes(base().input.value);
      }
    }
    update();
  }

  function toml() {
    const file = fileName();
    const lines = [
      `# ${words.sheet}: ${shownName().replace(/[\r\n]+/g, " ")}`,
      `# ${words.check} ${file}.toml`,
      `name = "${file}"`,
      `base = "${base().input.value}"`,
      "",
      "[flags]",
    ];
    for (const entry of flags) {
      const value = chosen(entry);
      if (value) {
        lines.push(`${entry.flag} = "${value.input.value}"`);
      }
    }
    return lines.join("\n") + "\n";
  }

  function fillSheet() {
    sheet.replaceChildren();
    const title = document.createElement("h1");
    title.textContent = `${words.sheet}: ${shownName()}`;
    const based = document.createElement("p");
    based.textContent = `${words.based}: ${base().choice.querySelector(".guinote-club-reading").textContent.trim()}`;
    const list = document.createElement("dl");
    for (const entry of flags.filter(asked)) {
      const term = document.createElement("dt");
      term.textContent = entry.question.textContent.trim();
      const reading = document.createElement("dd");
      const value = chosen(entry);
      if (value) {
        reading.textContent = value.choice.querySelector(".guinote-club-reading").textContent.trim();
        const sources = value.choice.querySelector(".guinote-sources");
        if (sources) {
          reading.append(` (${sources.textContent.trim()})`);
        }
      } else {
        reading.textContent = words.none;
      }
      list.append(term, reading);
    }
    sheet.append(title, based, list);
  }

  function update() {
    for (const entry of flags) {
      entry.block.hidden = !asked(entry);
      for (const value of entry.values) {
        value.choice.classList.toggle("guinote-club-chosen", value.input.checked);
      }
    }
    preview.textContent = toml();
    fillSheet();
  }

  // printing (the button, or the browser's own print): only the sheet, moved to the top of the page
  const home = sheet.parentNode;
  window.addEventListener("beforeprint", () => {
    fillSheet();
    document.body.append(sheet);
    document.body.classList.add("guinote-club-printing");
  });
  window.addEventListener("afterprint", () => {
    home.append(sheet);
    document.body.classList.remove("guinote-club-printing");
  });
  club.querySelector(".guinote-club-print").addEventListener("click", () => window.print());
  club.querySelector(".guinote-club-download").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([toml()], { type: "application/toml" }));
    link.download = `${fileName()}.toml`;
    document.body.append(link);
    link.click();
    link.remove();
  });
  name.addEventListener("input", update);
  for (const hidden of club.querySelectorAll("[hidden]")) {
    hidden.hidden = false; // the controls need the script: shown only where it runs
  }
  club.classList.add("guinote-club-ready");
  preset();
});
