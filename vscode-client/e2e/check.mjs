// What a user of the extension sees in VS Code (code-server in headless Chromium), on a copy of examples/.
// Writes every check's outcome and time to E2E_RESULT; exit status 1 when one failed.
/* global document -- the functions passed to page.waitForFunction run in the page */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const url = process.env.E2E_URL;
const workspace = process.env.E2E_WORKSPACE;
const artifacts = process.env.E2E_ARTIFACTS;
const resultFile = process.env.E2E_RESULT;
const startMs = Number(process.env.E2E_START_MS ?? Date.now());
const mode = process.env.E2E_MODE ?? 'main';

const PDF_TOOLS = '.clarvis/skills/pdf-tools/SKILL.md'; // user-invokable: an unknown field with a "did you mean"
const SHADOWED = '.agents/skills/code-review/SKILL.md';
const WINNER = '.clarvis/skills/code-review/SKILL.md';
const VALID = '.clarvis/skills/release-checklist/SKILL.md'; // allowed-tools, tools, agent, version (run.sh)
const SETTINGS = '.clarvis/settings.json'; // "event": "PreToolUse" (run.sh)
const OTHER_JSON = 'other.json'; // a plain JSON file with a syntax error: only VS Code's JSON server checks it

const checks = [];
let aborted = false; // the workbench did not come up: nothing else can be checked
const timings = {};
const since = () => Date.now() - startMs;
const log = (message) => console.log(`[${(since() / 1000).toFixed(1)} s] ${message}`);

/** Run one check; a failed check skips the rest of its group (they build on it), not the other groups. */
async function group(name, steps) {
  let failed = false;
  for (const [step, run] of steps) {
    const check = { name: `${name}: ${step}`, outcome: 'skipped', ms: null, detail: '' };
    checks.push(check);
    if (failed || aborted) continue;
    const began = Date.now();
    try {
      check.detail = (await run()) ?? '';
      check.outcome = 'pass';
    } catch (error) {
      check.outcome = 'fail';
      check.detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
      failed = true;
      await screenshot(`fail-${name}`);
    }
    check.ms = Date.now() - began;
    log(`${check.outcome.toUpperCase()} ${check.name}${check.detail ? ` — ${check.detail}` : ''}`);
  }
}

async function waitForCodeServer() {
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (since() > 60_000) throw new Error('code-server did not answer /healthz within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let page;

async function screenshot(name) {
  await page?.screenshot({ path: join(artifacts, `${name}.png`) }).catch(() => {});
}

async function command(title) {
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

async function openFile(relativePath) {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(join(workspace, relativePath));
  const directory = relativePath.split('/').slice(0, -1).join('/');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: directory })
    .first()
    .click({ timeout: 30_000 })
    .catch((error) => {
      throw new Error(`Quick Open offered no ${relativePath}: ${error.message.split('\n')[0]}`);
    });
  await page.locator('.tab.active', { hasText: relativePath.split('/').pop() }).waitFor({ timeout: 15_000 });
  await page.locator('.monaco-editor.focused').waitFor({ timeout: 15_000 });
}

async function goTo(line, column) {
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** The visible text of the active editor (VS Code renders spaces as non-breaking ones). */
async function editorText() {
  const text = await page.locator('.editor-group-container.active .monaco-editor .view-lines').innerText();
  return text.replace(/\u00a0/g, ' ');
}

/** Wait for a squiggle of `kind` on the line of the active editor that shows `text` (or for none: `present`
 * false). */
async function squiggleOnLine(text, kind, timeout, present = true) {
  await page.waitForFunction(
    ([text, kind, present]) => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      const line = [...(editor?.querySelectorAll('.view-line') ?? [])].find((element) =>
        element.textContent.replace(/\u00a0/g, ' ').includes(text),
      );
      if (!line) return false;
      const { top, bottom } = line.getBoundingClientRect();
      const found = [...editor.querySelectorAll(`.squiggly-${kind}`)].some((squiggle) => {
        const box = squiggle.getBoundingClientRect();
        return box.top >= top - 1 && box.bottom <= bottom + 1;
      });
      return found === present;
    },
    [text, kind, present],
    { timeout },
  );
}

/** Wait until the active editor shows `text`. */
async function editorShows(text, timeout) {
  await page.waitForFunction(
    (text) => {
      const lines = document.querySelector('.editor-group-container.active .monaco-editor .view-lines');
      return lines?.textContent.replace(/\u00a0/g, ' ').includes(text) ?? false;
    },
    text,
    { timeout },
  );
}

/** The Problems row that shows `text`, after typing `filter` into the panel's filter box: the panel is a virtual
 * list, only the rows in view exist. */
async function problemsRow(filter, text, timeout = 30_000) {
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.panel .viewpane-filter input').first().fill(filter);
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout }).catch(async (error) => {
    const rows = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
    const shown = rows.map((r) => r.replace(/\s+/g, ' ')).join(' | ') || 'none';
    throw new Error(`no Problems row with ${text} under the filter "${filter}" after ${timeout} ms (rows: ${shown}): ${error.message.split('\n')[0]}`);
  });
  return (await row.innerText()).replace(/\s+/g, ' ');
}

/** Every Problems row of one file, as text, filtered by the file's glob: the diagnostics, not the rows of their
 * related information under them ("SKILL.md [Ln 6, Col 1] : `allowed-tools` is set here"). */
async function problemsOf(glob) {
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.panel .viewpane-filter input').first().fill(glob);
  await page.waitForTimeout(500); // the filter applies after a short debounce
  const rows = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
  return rows
    .map((row) => row.replace(/\s+/g, ' ').trim())
    .filter((row) => /\[Ln \d+, Col \d+\]/.test(row) && !/^\S+ \[Ln \d+, Col \d+\] :/.test(row));
}

/** The line of the active editor's text that contains `text`, counted from 1. */
async function lineOf(text) {
  const lines = await page.locator('.editor-group-container.active .monaco-editor .view-line').allInnerTexts();
  const tops = await page
    .locator('.editor-group-container.active .monaco-editor .view-line')
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().top));
  const order = tops.map((top, index) => [top, index]).sort((a, b) => a[0] - b[0]).map(([, index]) => index);
  const position = order.findIndex((index) => lines[index].replace(/\u00a0/g, ' ').includes(text));
  if (position < 0) throw new Error(`no line with ${text} in view`);
  return position + 1;
}

/** The language VS Code gave the active editor, from the status bar. */
async function editorLanguage() {
  const item = page.locator('#status\\.editor\\.mode');
  await item.waitFor({ timeout: 10_000 });
  return (await item.innerText()).trim();
}

const codeLens = (text) => page.locator('.editor-group-container.active .codelens-decoration', { hasText: text }).first();

/** The picture for the README (not a check): a shadowed copy with its lens, the tree and the Problems panel. */
async function readmePicture() {
  try {
    await openFile(SHADOWED);
    await codeLens('shadowed by').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.panel .viewpane-filter input').first().focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.locator('.markers-panel .monaco-list-row').nth(5).waitFor({ timeout: 10_000 });
    await page.locator('.pane-header', { hasText: /^ws$/i }).first().click(); // room for the tree
    await page.locator('.explorer-folders-view').waitFor({ state: 'hidden', timeout: 5_000 });
    await screenshot('vscode');
  } catch (error) {
    log(`no README picture: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    await screenshot('vscode-failed');
  }
}

const browserArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser;
try {
  await group('workbench', [
    ['code-server answers', waitForCodeServer],
    [
      'Chromium starts',
      async () => {
        browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: browserArgs });
        page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
      },
    ],
    [
      'opens the workspace',
      async () => {
        await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`);
        await page.locator('.explorer-folders-view').first().waitFor({ timeout: 60_000 });
        await page.locator('.monaco-workbench').click({ position: { x: 800, y: 450 } });
        timings.workbenchMs = since();
      },
    ],
  ]);
  aborted = checks.some((check) => check.outcome !== 'pass');
  if (mode === 'broken') {
    await brokenServer();
  } else {
    await mainChecks();
  }
} finally {
  await browser?.close();
  const ok = checks.length > 0 && checks.every((check) => check.outcome === 'pass');
  writeFileSync(resultFile, `${JSON.stringify({ ok, mode, totalMs: since(), timings, checks }, null, 2)}\n`);
  log(ok ? 'all checks passed' : 'some checks failed');
  process.exitCode = ok ? 0 : 1;
}

/** clarvis.server.path names a program that answers --version, then exits at once with an error on stderr. */
async function brokenServer() {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Clarvis:' });
  await group('server that cannot start', [
    [
      'one notification, with the server\'s own stderr line',
      async () => {
        await toast.first().waitFor({ timeout: 60_000 });
        await page.waitForTimeout(3_000); // a second one would come right after the first
        const texts = (await toast.allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
        if (texts.length !== 1) throw new Error(`${texts.length} notifications: ${texts.join(' | ')}`);
        if (!texts[0].includes('cannot read /etc/clarvis/site.toml')) throw new Error(`not the server's words: ${texts[0]}`);
        if (/EPIPE|Error:/.test(texts[0])) throw new Error(`an internal error shown: ${texts[0]}`);
        await screenshot('broken-notification');
        return texts[0];
      },
    ],
    [
      'the status bar says the server is not running',
      async () => {
        const item = page.locator('.statusbar-item', { hasText: 'Clarvis: server not running' }).first();
        await item.waitFor({ timeout: 10_000 });
        return (await item.innerText()).trim();
      },
    ],
    [
      'the Effective Skills view says "the clarvis server is not running", with Show Output and Install',
      async () => {
        await command('Clarvis: Show Effective Skills');
        const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Effective Skills' }) });
        const welcome = view.locator('.welcome-view-content', { hasText: 'The clarvis server is not running' });
        await welcome.waitFor({ timeout: 15_000 });
        const text = (await welcome.innerText()).replace(/\s+/g, ' ');
        for (const button of ['Show Output', 'Install']) {
          if (!text.includes(button)) throw new Error(`no "${button}" button: ${text}`);
        }
        if (text.includes('No skills yet')) throw new Error(`the view says both: ${text}`);
        await screenshot('broken-view');
        return text;
      },
    ],
  ]);
}

async function mainChecks() {
  await group('diagnostics', [
    [
      `squiggle in ${PDF_TOOLS}`,
      async () => {
        await openFile(PDF_TOOLS);
        const opened = since();
        // Not just any squiggle: VS Code checks the links of a skill itself.
        await squiggleOnLine('user-invokable: false', 'warning', 60_000);
        timings.startToDiagnosticsMs = since();
        timings.openToDiagnosticsMs = since() - opened;
        return `${timings.openToDiagnosticsMs} ms after opening the file`;
      },
    ],
    [
      'Problems row with the rule code',
      async () => {
        const text = await problemsRow('skill/unknown-field', 'user-invokable');
        if (!text.includes('skill/unknown-field')) throw new Error(`the row has no rule code: ${text}`);
        return text;
      },
    ],
    [
      'hover shows the finding',
      async () => {
        await page.locator('.editor-group-container.active .monaco-editor').click();
        await goTo(5, 3);
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        const hover = page.locator('.monaco-hover', { hasText: 'Unknown frontmatter field' }).first();
        await hover.waitFor({ timeout: 15_000 });
        const text = (await hover.innerText()).replace(/\s+/g, ' ');
        await page.keyboard.press('Escape');
        return text.slice(text.indexOf('Unknown frontmatter field')).slice(0, 120);
      },
    ],
    [
      'quick fix renames the field',
      async () => {
        const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Rename "user-invokable" to "user-invocable"' });
        // Headless Chromium now and then drops Ctrl+. (or the lightbulb is not drawn yet): try each way in, in turn.
        const ways = [
          ['Ctrl+.', () => page.keyboard.press('Control+.')],
          ['the command palette', async () => {
            await page.keyboard.press('F1');
            await page.locator('.quick-input-widget input').fill('>Quick Fix...');
            await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Quick Fix...' }).first().click({ timeout: 5_000 });
          }],
          ['the lightbulb', () => page.locator('.editor-group-container.active .lightBulbWidget').first().click({ timeout: 5_000 })],
          ['Ctrl+. again', () => page.keyboard.press('Control+.')],
        ];
        let chosen = '';
        for (const [way, open] of ways) {
          await page.keyboard.press('Escape');
          await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
          await goTo(5, 3);
          await open().catch(() => {});
          if (await fix.first().waitFor({ timeout: 8_000 }).then(() => true, () => false)) {
            chosen = way;
            break;
          }
        }
        if (!chosen) throw new Error(`no "Rename" quick fix offered on line 5 (tried ${ways.map(([way]) => way).join(', ')})`);
        await fix.first().click({ timeout: 15_000 });
        await editorShows('user-invocable: false', 10_000).catch(() => {});
        const text = await editorText();
        if (!text.includes('user-invocable: false') || text.includes('user-invokable')) {
          throw new Error(`the text did not change: ${text.split('\n').slice(0, 7).join(' | ')}`);
        }
        await screenshot('diagnostics');
        return `line 5 now reads "user-invocable: false" (the fix chosen with ${chosen})`;
      },
    ],
  ]);

  await group('no contradiction with VS Code', [
    [
      `${VALID} (allowed-tools, tools, agent, version): Markdown colours`,
      async () => {
        await openFile(VALID);
        // The language is what keeps VS Code's skill checks away; the rows below are what the user sees.
        const language = await editorLanguage();
        await editorShows('# Release checklist', 10_000);
        const colours = await page
          .locator('.editor-group-container.active .monaco-editor .view-line span[class^="mtk"]')
          .evaluateAll((spans) => [...new Set(spans.map((span) => span.className))]);
        if (colours.length < 3) throw new Error(`only ${colours.join(', ')}: no Markdown highlighting`);
        return `${language}, ${colours.length} token colours`;
      },
    ],
    [
      'the hover on allowed-tools is clarvis\'s alone',
      async () => {
        await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
        await goTo(6, 3);
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        const hover = page.locator('.monaco-hover', { hasText: 'Compatibility metadata' }).first();
        await hover.waitFor({ timeout: 30_000 }); // the server's answer: it has seen the file
        const text = (await hover.innerText()).replace(/\s+/g, ' ');
        await page.keyboard.press('Escape');
        if (/not supported|VS Code skills/i.test(text)) throw new Error(`the hover contradicts: ${text.slice(0, 300)}`);
        return text.slice(0, 100);
      },
    ],
    [
      'no Problems row that is not clarvis\'s, no greyed-out key',
      async () => {
        // VS Code's skill checks run 200 ms after a change; the server has answered the hover, so both had time.
        await page.waitForTimeout(2_000);
        const rows = await problemsOf('**/release-checklist/SKILL.md');
        const foreign = rows.filter((row) => !row.includes('clarvis'));
        if (foreign.length > 0) throw new Error(`rows from another source: ${foreign.join(' | ')}`);
        const greyed = await page.locator('.editor-group-container.active .monaco-editor [class*="unnecessary"]').count();
        if (greyed > 0) throw new Error(`${greyed} greyed-out ranges in the editor`);
        return `${rows.length} rows, all clarvis's: ${rows.join(' | ') || 'none'}`;
      },
    ],
  ]);

  await group('code lens', [
    [
      `"shadowed by" on ${SHADOWED}`,
      async () => {
        await openFile(SHADOWED);
        const opened = Date.now();
        await codeLens('shadowed by').waitFor({ timeout: 20_000 }).catch(async () => {
          // Say whether reopening the file brings it (a missing workspace/codeLens/refresh) or nothing does.
          await page.keyboard.press('Control+W');
          await openFile(SHADOWED);
          const reopened = await codeLens('shadowed by').waitFor({ timeout: 10_000 }).then(() => true, () => false);
          throw new Error(
            reopened
              ? 'no "shadowed by" lens within 20 s of opening the file; it appeared after closing and reopening it'
              : 'no "shadowed by" lens, not even after closing and reopening the file',
          );
        });
        timings.openToCodeLensMs = Date.now() - opened;
        return (await codeLens('shadowed by').innerText()).trim();
      },
    ],
    [
      `"overrides" on ${WINNER}, opening the references peek`,
      async () => {
        await openFile(WINNER);
        const lens = codeLens('overrides');
        await lens.waitFor({ timeout: 20_000 });
        const title = (await lens.innerText()).trim();
        await lens.locator('a').first().click();
        const peek = page.locator('.zone-widget .peekview-widget', { hasText: 'SKILL.md' }).first();
        await peek.waitFor({ timeout: 15_000 });
        const text = (await peek.innerText()).replace(/\s+/g, ' ');
        if (!text.includes('.agents')) throw new Error(`the peek does not show the shadowed copy: ${text.slice(0, 200)}`);
        await screenshot('code-lens');
        await page.keyboard.press('Escape');
        return title;
      },
    ],
  ]);

  await group('one report per mistake', [
    [
      `VS Code's JSON language server runs (a syntax error in ${OTHER_JSON})`,
      async () => {
        // It starts when the first JSON file opens: its own finding here shows it is up, so that its silence on
        // the Clarvis files below means something. On a loaded machine its start is what takes the time.
        await openFile(OTHER_JSON);
        const rows = await problemsRow('**/other.json', 'Value expected', 90_000);
        return rows;
      },
    ],
    [
      `exactly one Problems row for "event": "PreToolUse" in ${SETTINGS}`,
      async () => {
        await openFile(SETTINGS);
        const language = await editorLanguage();
        await squiggleOnLine('"PreToolUse"', 'error', 60_000);
        const line = await lineOf('"event": "PreToolUse"');
        // The JSON server checks a file within a second of its opening once it runs; give it three.
        await page.waitForTimeout(3_000);
        await page.keyboard.press('Control+Shift+P');
        await page.locator('.quick-input-widget input').fill('>View: Toggle Maximized Panel');
        await page.keyboard.press('Enter');
        const rows = (await problemsOf('**/.clarvis/settings.json')).filter((row) => row.includes(`[Ln ${line}, `));
        await page.keyboard.press('Control+Shift+P');
        await page.locator('.quick-input-widget input').fill('>View: Toggle Maximized Panel');
        await page.keyboard.press('Enter');
        if (rows.length !== 1) throw new Error(`${rows.length} rows on line ${line}: ${rows.join(' | ') || 'none'}`);
        if (!rows[0].includes('clarvis')) throw new Error(`the row is not clarvis's: ${rows[0]}`);
        return `${language}: ${rows[0]}`;
      },
    ],
  ]);

  await group('effective skills', [
    [
      'the tree lists the shadowed copy under its winner',
      async () => {
        await command('Clarvis: Show Effective Skills');
        const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Effective Skills' }) });
        const winner = view.locator('.monaco-list-row', { hasText: 'code-review' }).first();
        await winner.waitFor({ timeout: 30_000 });
        const shadowed = view.locator('.monaco-list-row', { hasText: '.agents/skills/code-review' }).first();
        await shadowed.waitFor({ timeout: 10_000 });
        const text = (await shadowed.innerText()).replace(/\s+/g, ' ');
        if (!text.includes('shadowed')) throw new Error(`the copy is not marked shadowed: ${text}`);
        return text;
      },
    ],
    [
      'the tree marks a skipped duplicate, a rejected name and a SKILL.md that cannot load',
      async () => {
        const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Effective Skills' }) });
        const row = (text) => view.locator('.monaco-list-row', { hasText: text }).first();
        const found = [];
        for (const [label, mark] of [
          ['deploy helper', 'not loaded: invalid name'],
          ['release-notes-draft', 'skipped'],
          ['changelog', 'not loaded'],
        ]) {
          // The tree renders only the rows in view: the rows below the winners may need the list scrolled down.
          if (!(await row(label).waitFor({ timeout: 3_000 }).then(() => true, () => false))) {
            await view.locator('.monaco-list').first().focus().catch(() => {});
            await page.keyboard.press('End');
          }
          await row(label)
            .waitFor({ timeout: 10_000 })
            .catch(async () => {
              const rows = await view.locator('.monaco-list-row').allInnerTexts();
              throw new Error(`no row "${label}" in the tree; rows shown: ${rows.map((r) => r.replace(/\s+/g, ' ')).join(' | ')}`);
            });
          const text = (await row(label).innerText()).replace(/\s+/g, ' ');
          if (!text.includes(mark)) throw new Error(`"${label}" is not marked "${mark}": ${text}`);
          found.push(text);
        }
        return found.join(' | ');
      },
    ],
    [
      'the status bar counts the skills',
      async () => {
        const item = page.locator('.statusbar-item', { hasText: /Clarvis: \d+ skills?/ }).first();
        await item.waitFor({ timeout: 15_000 });
        return (await item.innerText()).trim();
      },
    ],
  ]);
  if (!aborted) await readmePicture();

  await group('settings', [
    [
      'a rule switched off in the workspace settings disappears',
      async () => {
        await openFile(PDF_TOOLS);
        await squiggleOnLine('agent: reviewr', 'warning', 15_000);
        // As a teammate's commit would: VS Code sees the workspace settings change, the extension pushes them.
        mkdirSync(join(workspace, '.vscode'), { recursive: true });
        const rules = { 'skill/unknown-agent': 'off' };
        writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'clarvis.rules': rules }));
        await squiggleOnLine('agent: reviewr', 'warning', 30_000, false);
        return 'clarvis.rules {"skill/unknown-agent": "off"} took the squiggle away';
      },
    ],
  ]);
}
