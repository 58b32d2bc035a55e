// Usage: node show-message.js <chromium executable> <page URL>
// Opens the example page in headless Chromium, prints "subscribed" once the page has subscribed,
// then prints the text of the first message row the page shows, and exits 0.
const { chromium } = require('playwright-core');

const [executablePath, url] = process.argv.slice(2);
(async () => {
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error('page error: ' + e.message));
    await page.goto(url);
    await page.waitForSelector('body[data-subscribed="true"]', { timeout: 20000 });
    console.log('subscribed');
    const row = await page.waitForSelector('tr.message', { timeout: 20000 });
    console.log(JSON.stringify({ row: (await row.innerText()).split('\t').map((s) => s.trim()),
      status: await page.textContent('#status') }));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e.message); process.exit(1); });
