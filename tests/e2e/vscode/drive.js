// Drives a real VS Code (code-server in headless Chromium, through
// playwright-core) with the packaged inputmend extension, as a person would:
// keyboard, command palette, quick fix widget, notifications, status bar.
//
// Run by tests/e2e/test_vscode.py, which prepares the profile, the workspace and
// code-server, with INPUTMEND_VSCODE_E2E holding a JSON object:
//   url, folder      the workbench address and the folder it opens
//   chromium         the chromium executable; playwright   playwright-core's folder
//   artifacts        where screenshots go; result   where the checks are written (JSON)
//   logs             code-server's log folder (the extension's output channel is there)
//   machineSettings  the Remote ("Machine") settings file of the profile
//   python           the interpreter the extension finds on PATH (none is configured)
//   timeoutMs        time allowed for one check
//
// The checks run in order, on documents of their own; the first failure stops
// the run (the state after it is unknown) with a screenshot. Which repair is
// best is the ranking's business: a repair counts when the document becomes
// valid. What the user reads is checked: quick fix titles in words, without
// algorithm names or duplicates, and one Problems entry for one missing comma.
'use strict';

const fs = require('fs');
const path = require('path');

const config = JSON.parse(process.env.INPUTMEND_VSCODE_E2E || '{}');
const { chromium } = require(config.playwright);

const result = { checks: [], statusTexts: [] };
let page;
let step = 0;

function writeResult() {
  fs.writeFileSync(config.result, JSON.stringify(result, null, 2));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a truthy value; fails with `what` after `ms`. */
async function until(probe, what, ms = config.timeoutMs) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(150);
  }
}

async function screenshot(name) {
  step += 1;
  const file = path.join(config.artifacts, `${String(step).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file }).catch(() => undefined);
  return file;
}

// ---------------------------------------------------------------- workbench

/** The text of the inputmend status bar item ('' when hidden). */
async function statusText() {
  const texts = await page.locator('.statusbar-item').allInnerTexts();
  const text = texts.map((t) => t.trim()).find((t) => t.startsWith('inputmend')) ?? '';
  if (text && !result.statusTexts.includes(text)) result.statusTexts.push(text);
  return text;
}

function waitStatus(pattern, ms) {
  return until(async () => pattern.test(await statusText()), `the status bar to show ${pattern}`, ms);
}

/** The text of the active editor (one-line documents fit the view). */
async function editorText() {
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  return (await lines.innerText()).replace(/\u00a0/g, ' ');
}

/** Error squiggles in the active editor (the user settings turn VS Code's own JSON validation off). */
async function errorSquiggles() {
  return page.locator('.editor-group-container.active .squiggly-error').count();
}

/** Runs a command by its palette title (exactly this entry, not a fuzzy neighbour). */
async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  const row = await until(async () => {
    for (const candidate of await rows.all()) {
      if ((await candidate.getAttribute('aria-label').catch(() => ''))?.startsWith(title)) return candidate;
    }
    return undefined;
  }, `the palette entry "${title}"`, 15_000).catch(async (error) => {
    const offered = await rows.evaluateAll((all) => all.map((r) => r.getAttribute('aria-label')));
    throw new Error(`${error.message}; the palette offers: ${offered.join(' | ')}`);
  });
  await row.click();
  await page.mouse.move(1, 450); // no hover tooltips over what comes next
}

async function openFile(name) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  // The list first shows the recently opened files: wait for the filtered one.
  const first = page.locator('.quick-input-widget .monaco-list-row').first();
  await until(async () => (await first.getAttribute('aria-label').catch(() => ''))?.startsWith(name), `${name} in Quick Open`);
  await page.keyboard.press('Enter');
  await page.locator(`.editor-group-container.active .tab.active[aria-label="${name}"]`).waitFor({ state: 'visible' });
  await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
}

/** Moves the cursor with Go to Line/Column (`line:column`, 1-based). */
async function goTo(position) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${position}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/** The titles of the quick fix widget (Ctrl+. at the cursor), once `ready(titles)` holds. */
async function quickFixTitles(ready, what) {
  const actions = page.locator('.action-widget .monaco-list-row.action');
  // The repairs are computed in the background: ask again until they are there.
  return until(async () => {
    await page.keyboard.press('Control+.');
    // Before the repairs are ranked VS Code may say "No code actions available" instead.
    await page.locator('.action-widget').waitFor({ state: 'visible', timeout: 3000 }).catch(() => undefined);
    await sleep(300);
    const found = (await actions.allInnerTexts()).map((t) => t.trim());
    if (ready(found)) return found;
    await page.keyboard.press('Escape');
    await sleep(500);
    return undefined;
  }, what);
}

/** Titles say what changes, in words: no algorithm name, no duplicate. */
function checkTitles(titles) {
  const named = titles.filter((t) => /\b(fsynth|ddmax[\w-]*|ddset)\b/i.test(t) && !/DDSET/.test(t));
  if (named.length > 0) throw new Error(`algorithm names in quick fix titles: ${named.join(' | ')}`);
  if (new Set(titles).size !== titles.length) throw new Error(`duplicate quick fixes: ${titles.join(' | ')}`);
}

/** Rows of the Problems view that are markers of inputmend (not file rows). */
async function problemRows() {
  const rows = page.locator('.markers-panel .monaco-list-row', { hasText: 'inputmend' });
  return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/**
 * The ranked repairs in the quick pick with the diff preview of the highlighted
 * one: waits for both, returns the rows' texts, and applies the highlighted
 * repair with Enter (the preview closes).
 */
async function pickWithPreview(shot) {
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await until(async () => (await rows.count()) > 0, 'the ranked repairs in a quick pick');
  await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: config.timeoutMs });
  const titles = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
  await screenshot(shot);
  await page.keyboard.press('Enter');
  await until(async () => (await page.locator('.monaco-diff-editor').count()) === 0, 'the preview to close');
  return titles;
}

/** Opens a valid document, types `typed` at its end and saves it: the suggestion on save. */
async function saveBroken(name, typed) {
  await openFile(name);
  await waitStatus(/^inputmend: valid$/);
  await page.keyboard.press('Control+End');
  await page.keyboard.type(typed);
  await waitStatus(/^inputmend: invalid/);
  await page.keyboard.press('Control+S');
  return waitToast(/Show all repairs/);
}

/** Waits for a notification matching `pattern`: its element and its text. */
async function waitToast(pattern) {
  const item = page.locator('.notifications-toasts .notification-list-item', { hasText: pattern }).first();
  await item.waitFor({ state: 'visible', timeout: config.timeoutMs });
  return { item, text: (await item.innerText()).replace(/\s+/g, ' ') };
}

async function clearNotifications() {
  await runCommand('Notifications: Clear All Notifications');
}

async function save() {
  await page.keyboard.press('Control+S');
  await until(async () => (await page.locator('.tab.active.dirty').count()) === 0, 'the document to be saved');
}

/** The extension's output channel as code-server logs it. */
function outputChannel() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^\d+-inputmend\.log$/.test(entry.name)) found.push(full);
    }
  };
  if (fs.existsSync(config.logs)) walk(config.logs);
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

function countLines(text, pattern) {
  return text.split('\n').filter((line) => pattern.test(line)).length;
}

/** Opens a document of the folder and waits until the server calls it invalid. */
async function openInvalid(name) {
  await openFile(name);
  await waitStatus(/^inputmend: invalid/);
}

/**
 * Waits until the active JSON document is valid (status bar, squiggles, the
 * text itself) and saves it; the Python side then parses the file. Which repair
 * is best is the ranking's business, not this test's.
 */
async function expectRepaired(how) {
  await waitStatus(/^inputmend: valid$/);
  await until(async () => (await errorSquiggles()) === 0, 'the squiggles to go');
  const text = await editorText();
  JSON.parse(text);
  await save();
  return how ? `${how} -> ${text}` : text;
}

// ---------------------------------------------------------------- checks

const checks = [
  [
    'activation',
    'opening a JSON file of the folder starts the server the extension carries, with the python3 found on PATH',
    async () => {
      await openFile('person.json');
      await waitStatus(/^inputmend: invalid \(\d+\)$/);
      const log = outputChannel();
      if (!log.includes(`interpreter: ${config.python} (path)`)) throw new Error(`unexpected interpreter:\n${log}`);
      if (!/inputmend \S+ \(bundled, pure Python; Python 3\.\d+/.test(log)) throw new Error(`not the bundled server:\n${log}`);
      if (!/starting: \S+ -P \S+bundled\/tool\/server\.py lsp/.test(log)) throw new Error(`unexpected launch:\n${log}`);
      return (await statusText()) + '; ' + log.split('\n').filter((l) => /interpreter:|starting:|bundled/.test(l)).join('; ');
    },
  ],
  [
    'squiggle-and-problems',
    'the error is underlined and listed in the Problems view',
    async () => {
      await until(async () => (await errorSquiggles()) > 0, 'a squiggle');
      await runCommand('Problems: Focus on Problems View');
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'inputmend' }).first();
      await row.waitFor({ state: 'visible', timeout: config.timeoutMs });
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      await runCommand('View: Hide Panel');
      return text;
    },
  ],
  [
    'quick-fix-list',
    'Ctrl+. on the error lists the ranked repairs, titled in words',
    async () => {
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await goTo('1:18');
      const wanted = 'Insert missing `,` after `"Dave"`';
      const titles = await quickFixTitles((found) => found.includes(wanted), `the quick fix "${wanted}"`);
      checkTitles(titles);
      if (titles[0] !== wanted) throw new Error(`the first quick fix is not "${wanted}": ${titles.join(' | ')}`);
      return titles.join(' | ');
    },
  ],
  [
    'preferred-fix',
    'the first quick fix (VS Code lists the preferred one first) makes the document valid',
    async () => {
      // The widget opens with its first entry focused; Enter applies it, as a person would.
      const first = page.locator('.action-widget .monaco-list-row.action').first();
      const title = await first.innerText();
      if (!/\bfocused\b/.test((await first.getAttribute('class')) ?? '')) throw new Error('the first quick fix is not focused');
      await page.keyboard.press('Enter');
      return expectRepaired(title);
    },
  ],
  [
    'auto-fix',
    'Auto Fix applies the preferred repair',
    async () => {
      await openInvalid('order.json');
      await goTo('1:30');
      // Until the background analysis has ranked the repairs there is nothing to apply.
      await until(async () => {
        await runCommand('Auto Fix...');
        await sleep(1000);
        return /^inputmend: valid$/.test(await statusText());
      }, 'Auto Fix to repair the document');
      return expectRepaired();
    },
  ],
  [
    'on-save',
    'saving an invalid document offers the best repair; "Apply repair" applies it',
    async () => {
      const offer = await saveBroken('save.json', 'x');
      await offer.item.locator('.monaco-button', { hasText: 'Apply repair' }).click();
      return expectRepaired(offer.text);
    },
  ],
  [
    'on-save-show-all',
    'saving an invalid document: "Show all repairs" opens the quick pick with previews, not a text file',
    async () => {
      await clearNotifications();
      const offer = await saveBroken('listing.json', ',');
      await offer.item.locator('.monaco-button', { hasText: 'Show all repairs' }).click();
      const titles = await pickWithPreview('on-save-show-all-preview');
      const listings = await page.locator('.tab', { hasText: '.repairs.txt' }).count();
      if (listings > 0) throw new Error('a text listing was opened');
      return expectRepaired(`${offer.text} -> ${titles.join(' | ')}`);
    },
  ],
  [
    'show-repairs',
    'Show Repairs lists the repairs with a diff preview; Enter applies the highlighted one',
    async () => {
      await clearNotifications();
      await openInvalid('choose.json');
      await runCommand('inputmend: Show Repairs');
      return expectRepaired((await pickWithPreview('show-repairs-preview')).join(' | '));
    },
  ],
  [
    'repair-document',
    'Repair Document applies the best repair',
    async () => {
      await openInvalid('repair.json');
      await runCommand('inputmend: Repair Document');
      return expectRepaired();
    },
  ],
  [
    'one-problem',
    'one missing comma: one Problems entry, one quick fix inserting it, before and after the analysis',
    async () => {
      await clearNotifications();
      await openFile('package.json');
      await waitStatus(/^inputmend: invalid \(1\)$/);
      await goTo('3:21');
      const wanted = 'Insert missing `,` after `"0.1.0"`';
      const titles = await quickFixTitles((found) => found.includes(wanted), `the quick fix "${wanted}"`);
      await page.keyboard.press('Escape');
      checkTitles(titles);
      if (titles.filter((t) => t.startsWith('Insert')).length !== 1) throw new Error(`the comma is offered more than once: ${titles.join(' | ')}`);
      // once the analysis is over (not busy), nothing more is published for it
      await waitStatus(/^inputmend: invalid \(1\)$/);
      await sleep(2000);
      await runCommand('Problems: Focus on Problems View');
      const rows = await until(async () => {
        const found = await problemRows();
        return found.length > 0 ? found : undefined;
      }, 'the Problems entry');
      await screenshot('one-problem-panel');
      await runCommand('View: Hide Panel');
      if (rows.length !== 1) throw new Error(`${rows.length} Problems entries: ${rows.join(' | ')}`);
      return `${rows[0]}; quick fixes: ${titles.join(' | ')}`;
    },
  ],
  [
    'explain-ddset',
    'Explain Failure (DDSET) on a document the grammar accepts and the validator rejects',
    async () => {
      await clearNotifications();
      await openInvalid('calc.expr');
      await runCommand('inputmend: Explain Failure (DDSET)');
      const { text } = await waitToast(/fails for inputs like/);
      if (!text.includes('((<expr>))')) throw new Error(`unexpected explanation: ${text}`);
      return text;
    },
  ],
  [
    'restricted-mode',
    "a validator from the untrusted folder's .inputmend.toml is not run, and the status bar says so",
    async () => {
      await openFile('notes.csv');
      await waitStatus(/^inputmend: valid \(validator not run\)$/);
      return statusText();
    },
  ],
  [
    'status-states',
    'a broken interpreter in the Remote settings: "not running" and an error; removing it restarts the server',
    async () => {
      await clearNotifications();
      await openFile('person.json');
      await waitStatus(/^inputmend: valid$/);
      const missing = path.join(config.artifacts, 'no-such-python');
      fs.writeFileSync(config.machineSettings, JSON.stringify({ 'inputmend.server.pythonPath': missing }));
      await waitStatus(/^inputmend: not running$/);
      const { text: message } = await waitToast(/cannot run the Python interpreter/);
      await screenshot('status-states-notice');
      if (!message.includes(missing)) throw new Error(`the error does not name the interpreter: ${message}`);
      fs.writeFileSync(config.machineSettings, '{}');
      await waitStatus(/^inputmend: valid$/);
      const stale = page.locator('.notifications-toasts .notification-list-item', { hasText: /cannot run the Python interpreter/ });
      await until(async () => (await stale.count()) === 0, 'the failure notification to close after the restart');
      return `${message}; closed after the restart; seen: ${result.statusTexts.join(' | ')}`;
    },
  ],
  [
    'restart',
    'Restart Server starts a new server, which checks the open document again',
    async () => {
      await clearNotifications();
      await openFile('order.json');
      await waitStatus(/^inputmend: valid$/);
      const before = countLines(outputChannel(), /starting: /);
      await runCommand('inputmend: Restart Server');
      await until(() => countLines(outputChannel(), /starting: /) > before, 'a new server start in the log');
      await waitStatus(/^inputmend: valid$/);
      return `server starts logged: ${before} -> ${countLines(outputChannel(), /starting: /)}`;
    },
  ],
  [
    'server-log',
    'Show Server Log shows the output channel "inputmend"; no server stopped on the way left a traceback in it',
    async () => {
      await runCommand('inputmend: Show Server Log');
      // The view shows the end of the channel; every server start logs "starting: … server.py lsp".
      // The Output view wraps long lines, wherever the paths of the machine put the break, so the
      // rendered lines are joined by blanks before the search.
      const output = page.locator('.output-view .view-lines');
      const shown = async () => (await output.allInnerTexts()).join(' ').replace(/\s+/g, ' ');
      await until(async () => /server\.py lsp/.test(await shown()), 'the server log in the Output view');
      const channel = await page.locator('.panel select.monaco-select-box').first().inputValue().catch(() => '');
      if (channel !== 'inputmend') throw new Error(`the Output view shows the channel "${channel}"`);
      // the servers stopped by the restarts above ended quietly
      const traceback = outputChannel().indexOf('Traceback');
      if (traceback >= 0) throw new Error(`a traceback in the server log:\n${outputChannel().slice(traceback, traceback + 1500)}`);
      return (await shown()).slice(-300);
    },
  ],
];

async function main() {
  fs.mkdirSync(config.artifacts, { recursive: true });
  const browser = await chromium.launch({
    executablePath: config.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  let failed = false;
  try {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(config.timeoutMs);
    await page.goto(`${config.url}/?folder=${encodeURIComponent(config.folder)}`);
    await page.locator('.monaco-workbench .part.editor').waitFor({ state: 'visible' });
    // The workbench must be ready for the keyboard before the first shortcut.
    await page.locator('.statusbar').waitFor({ state: 'visible' });
    await page.locator('.part.editor').click();
    for (const [name, description, run] of checks) {
      const started = Date.now();
      process.stderr.write(`[e2e] ${name}: ${description}\n`);
      try {
        const detail = await run();
        const shot = await screenshot(name);
        result.checks.push({ name, ok: true, detail: String(detail ?? ''), ms: Date.now() - started, screenshot: shot });
      } catch (error) {
        const shot = await screenshot(`${name}-FAILED`);
        result.checks.push({
          name,
          ok: false,
          detail: error instanceof Error ? error.message : String(error),
          ms: Date.now() - started,
          screenshot: shot,
          status: await statusText().catch(() => ''),
        });
        failed = true;
        break;
      } finally {
        writeResult();
      }
    }
  } finally {
    await browser.close();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    result.error = error instanceof Error ? error.stack : String(error);
    writeResult();
    process.stderr.write(`${result.error}\n`);
    process.exit(2);
  },
);
