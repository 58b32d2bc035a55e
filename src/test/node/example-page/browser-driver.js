// Usage: node browser-driver.js <chromium executable>
// A small remote control for one headless Chromium, driven by a Java test (testtools.Browser):
// one JSON command per line on stdin, one JSON answer per line on stdout, in order.
//   {"op": "goto", "url": …}  {"op": "click", "selector": …}  {"op": "fill", "selector": …, "value": …}
//   {"op": "press", "selector": …, "key": …}  {"op": "select", "selector": …, "value": …}
//   {"op": "text", "selector": …}  {"op": "attribute", "selector": …, "name": …}  {"op": "count", "selector": …}
//   {"op": "waitFor", "selector": …, "state": "visible"|"attached"|"hidden"|"detached", "timeout": ms}
//   {"op": "waitForText", "selector": …, "text": …} (an element of that whole text, trimmed)
//   {"op": "viewport", "width": …, "height": …}  {"op": "colorScheme", "value": "light"|"dark"}
//   {"op": "focused"} (the focused element's id, or its tag)  {"op": "scrollWidth"}  {"op": "url"}
//   {"op": "screenshot", "path": …}  {"op": "close"}
// Every answer is {"ok": true, "value": …} or {"ok": false, "error": …}, and carries "problems":
// each page error, console error and Content-Security-Policy violation since the last answer, so
// the test fails on any of them.
const { chromium } = require('playwright-core');
const readline = require('readline');

const [executablePath] = process.argv.slice(2);
const problems = [];
let failures = 0;

async function run(page, cmd) {
  const timeout = cmd.timeout || 20000;
  switch (cmd.op) {
    case 'goto': await page.goto(cmd.url, { timeout }); return null;
    case 'click': await page.click(cmd.selector, { timeout }); return null;
    case 'fill': await page.fill(cmd.selector, cmd.value, { timeout }); return null;
    case 'press':
      if (cmd.selector) await page.press(cmd.selector, cmd.key, { timeout });
      else await page.keyboard.press(cmd.key);
      return null;
    case 'select': await page.selectOption(cmd.selector, cmd.value, { timeout }); return null;
    case 'text': return (await page.textContent(cmd.selector, { timeout })) ?? '';
    case 'attribute': return await page.getAttribute(cmd.selector, cmd.name, { timeout });
    case 'count': return await page.locator(cmd.selector).count();
    case 'waitFor': await page.waitForSelector(cmd.selector, { state: cmd.state || 'visible', timeout }); return null;
    case 'waitForText': {
      // An element whose whole text, trimmed, is the text given (its children's text included).
      const exact = new RegExp('^\\s*' + cmd.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\s*$');
      await page.locator(cmd.selector, { hasText: exact }).first().waitFor({ timeout });
      return null;
    }
    case 'viewport': await page.setViewportSize({ width: cmd.width, height: cmd.height }); return null;
    case 'colorScheme': await page.emulateMedia({ colorScheme: cmd.value }); return null;
    case 'focused': return await page.evaluate(() => {
      const e = document.activeElement;
      return e ? (e.id || e.tagName.toLowerCase()) : null;
    });
    case 'scrollWidth': return await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    case 'url': return page.url();
    case 'screenshot': await page.screenshot({ path: cmd.path }); return null;
    default: throw new Error('unknown op ' + cmd.op);
  }
}

(async () => {
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('console', (m) => {
    // A CSP violation is reported to the console as an error ("Refused to …").
    if (m.type() === 'error') problems.push('console error: ' + m.text());
  });
  page.on('response', async (r) => {
    // Which request a "Failed to load resource" error was, and what the server said.
    if (r.status() >= 400) {
      let body = '';
      try { body = (await r.text()).slice(0, 300); } catch (e) { /* a stream, or gone */ }
      problems.push(`answer ${r.status()} to ${r.request().method()} ${r.url()}: ${body}`);
    }
  });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const cmd = JSON.parse(line);
    if (cmd.op === 'close') break;
    let answer;
    try {
      answer = { ok: true, value: await run(page, cmd) };
    } catch (e) {
      // What the page looked like when the command failed, for the person reading the failure.
      const shot = `${process.cwd()}/failure-${++failures}.png`;
      await page.screenshot({ path: shot }).catch(() => {});
      answer = { ok: false, error: `${e.message} (the page then: ${shot})` };
    }
    answer.problems = problems.splice(0);
    process.stdout.write(JSON.stringify(answer) + '\n');
  }
  await browser.close();
})().catch((e) => { console.error(e.message); process.exit(1); });
