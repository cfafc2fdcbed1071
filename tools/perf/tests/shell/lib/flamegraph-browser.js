// SPDX-License-Identifier: GPL-2.0
// flamegraph-browser.js - drives perf script report flamegraph's HTML page in headless
// Chromium through the DevTools protocol (puppeteer-core), for flamegraph-browser.sh:
//
//	node flamegraph-browser.js CHROMIUM PAGE.html FOLDED SHOT.png   check the page
//	node flamegraph-browser.js CHROMIUM PAGE.html --time            time the first render
//
// FOLDED is the oracle: "proc;outer;...;leaf COUNT" lines made from perf script's text. The
// checks: no console error or page error and no request but the page itself; every box's
// name and width (read from the DOM) are those of its stack's count, and every stack has
// its box; a click zooms (the box fills the width, its ancestors fade, other boxes go);
// a search marks exactly the matching boxes and says the matched share; reset undoes both;
// the callee view has the leaf functions at its top level. Prints "ok ..." or
// "FAIL: why" (exit 1).
'use strict';
const puppeteer = require('puppeteer-core');
const fs = require('fs');

const [chromium, page_path, folded_path, shot] = process.argv.slice(2);

function fail(why) {
	console.log('FAIL: ' + why);
	process.exit(1);
}

// path -> samples of the stacks through it (the root "all" is the total)
function expected_tree(text) {
	const tree = new Map();
	let total = 0;
	for (const line of text.split('\n')) {
		const m = line.match(/^(.*) (\d+)$/);
		if (!m)
			continue;
		const frames = m[1].split(';'), n = +m[2];
		total += n;
		for (let i = 1; i <= frames.length; i++) {
			const p = frames.slice(0, i).join(';');
			tree.set(p, (tree.get(p) || 0) + n);
		}
	}
	return { tree, total };
}

// every box: its path, width, name shown, classes
async function read_boxes(page) {
	return page.evaluate(() => {
		const chart = document.getElementById('fg-chart');
		const boxes = [...chart.querySelectorAll('.fg-b')];
		const byId = new Map();
		const out = boxes.map((e) => {
			const r = e.getBoundingClientRect();
			const b = { id: +e.dataset.id, parent: +e.dataset.parent, name: e.dataset.name,
				text: e.textContent, width: r.width, top: r.top, cls: e.className };
			byId.set(b.id, b);
			return b;
		});
		for (const b of out) {
			const names = [];
			for (let p = b; p; p = byId.get(p.parent))
				names.unshift(p.name);
			b.path = names.slice(1).join(';');	/* without "all" */
		}
		return { boxes: out, width: chart.clientWidth,
			status: document.getElementById('fg-status').textContent };
	});
}

(async () => {
	const browser = await puppeteer.launch({
		executablePath: chromium, headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
	});
	const page = await browser.newPage();
	const errors = [], requests = [];
	const url = 'file://' + fs.realpathSync(page_path);
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('pageerror', (e) => errors.push(String(e && e.stack || e)));
	page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
	page.on('requestfailed', (r) => { if (r.url() !== url) requests.push(r.url()); });
	await page.setViewport({ width: 1240, height: 900 });
	const t0 = Date.now();
	await page.goto(url, { waitUntil: 'load' });
	try {
		await page.waitForSelector('#fg-chart .fg-b', { timeout: 10000 });
	} catch (e) {
		fail('no box drawn in 10 s' + (errors.length ? ': ' + errors.join(' | ') : ''));
	}
	const ms = Date.now() - t0;
	if (errors.length)
		fail('console errors: ' + errors.join(' | '));
	if (requests.length)
		fail('the page made requests: ' + requests.join(' '));
	if (folded_path === '--time') {
		const nr = await page.evaluate(() => document.querySelectorAll('.fg-b').length);
		console.log(`ok rendered ${nr} boxes in ${ms} ms`);
		await browser.close();
		return;
	}

	const { tree, total } = expected_tree(fs.readFileSync(folded_path, 'utf8'));
	const first = await read_boxes(page);
	const W = first.width;
	const seen = new Set();
	for (const b of first.boxes) {
		if (b.path === '') {
			if (Math.abs(b.width - (W - 1)) > 0.6)
				fail(`the root is ${b.width}px wide, not ${W - 1}`);
			continue;
		}
		if (!tree.has(b.path))
			fail(`a box the stacks do not have: ${b.path}`);
		if (seen.has(b.path))
			fail(`two boxes for ${b.path}`);
		seen.add(b.path);
		// a box is its share of the width less a 1px gap (at least 0.5px)
		const want = Math.max(tree.get(b.path) / total * W - 1, 0.5);
		if (Math.abs(b.width - want) > 0.6)
			fail(`${b.path}: ${b.width}px wide, ${tree.get(b.path)} of ${total} samples make ${want}px`);
		if (b.text !== '' && b.text !== b.name)
			fail(`${b.path}: shows "${b.text}"`);
	}
	for (const p of tree.keys())
		if (!seen.has(p))
			fail(`no box for ${p} (${tree.get(p)} samples)`);

	// zoom: the widest box two levels down
	const target = first.boxes.filter((b) => b.path.split(';').length === 2)
		.sort((a, b) => b.width - a.width)[0];
	if (!target)
		fail('no box to zoom into');
	await page.click(`.fg-b[data-id="${target.id}"]`, { offset: { x: 2, y: 5 } });
	const zoomed = await read_boxes(page);
	const z = zoomed.boxes.find((b) => b.path === target.path && !b.cls.includes('fg-faded'));
	if (!z || Math.abs(z.width - (W - 1)) > 0.6)
		fail(`zoom: ${target.path} does not fill the width`);
	for (const b of zoomed.boxes) {
		const under = b.path === target.path || b.path.startsWith(target.path + ';');
		const above = target.path.startsWith(b.path + ';') || b.path === '';
		if (!under && !above)
			fail(`zoom: ${b.path} is still drawn`);
		if (above !== b.cls.includes('fg-faded'))
			fail(`zoom: ${b.path} ${above ? 'is an ancestor but not faded' : 'is faded'}`);
		if (under) {
			const want = Math.max(tree.get(b.path) / tree.get(target.path) * W - 1, 0.5);
			if (Math.abs(b.width - want) > 0.6)
				fail(`zoom: ${b.path} is ${b.width}px, not ${want}`);
		}
	}
	if (!zoomed.status.includes('Zoomed'))
		fail('zoom: the status line does not say so');
	await page.click('#fg-reset');

	// search: the leaf function of the widest stack
	let leaf = null, best = 0;
	for (const [p, n] of tree)
		if (p.includes(';') && n > best && ![...tree.keys()].some((q) => q.startsWith(p + ';'))) {
			best = n;
			leaf = p.split(';').pop();
		}
	const re = leaf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	await page.type('#fg-search', re);
	const found = await read_boxes(page);
	let hits = 0, share = 0;
	for (const [p, n] of tree) {
		const names = p.split(';');
		if (names[names.length - 1] !== leaf)
			continue;
		hits++;
		// only the outermost match of a stack counts
		if (!names.slice(0, -1).includes(leaf))
			share += n;
	}
	const marked = found.boxes.filter((b) => b.cls.includes('fg-match'));
	if (marked.length !== hits || marked.some((b) => b.name !== leaf))
		fail(`search ${leaf}: ${marked.length} boxes marked, ${hits} stacks have it`);
	const pct = (100 * share / total).toFixed(2) + '%';
	if (!found.status.includes('Matched: ' + pct))
		fail(`search ${leaf}: status "${found.status}", want Matched: ${pct}`);
	await page.click('#fg-reset');
	const reset = await read_boxes(page);
	if (reset.boxes.length !== first.boxes.length || reset.boxes.some((b) => b.cls.includes('fg-match')) ||
	    reset.status !== '')
		fail('reset does not bring the first picture back');
	await page.screenshot({ path: shot });

	// the callee view: the leaves at the top, each with its own samples
	await page.click('#fg-view');
	const callee = await read_boxes(page);
	const self = new Map();
	for (const [p, n] of tree) {
		let kids = 0;
		for (const [q, m] of tree)
			if (q.startsWith(p + ';') && !q.slice(p.length + 1).includes(';'))
				kids += m;
		if (p.includes(';') && n > kids) {
			const name = p.split(';').pop();
			self.set(name, (self.get(name) || 0) + n - kids);
		}
	}
	const tops = callee.boxes.filter((b) => b.path && !b.path.includes(';'));
	for (const b of tops) {
		const want = Math.max((self.get(b.name) || 0) / total * W - 1, 0.5);
		if (Math.abs(b.width - want) > 0.6)
			fail(`callee view: ${b.name} is ${b.width}px, not ${want}`);
	}
	if (tops.length !== self.size)
		fail(`callee view: ${tops.length} leaf functions, the stacks have ${self.size}`);
	const root = callee.boxes.find((b) => b.path === '');
	if (!root || tops.some((b) => b.top <= root.top))
		fail('callee view: the root is not on top');
	if (errors.length)
		fail('console errors: ' + errors.join(' | '));
	if (requests.length)
		fail('the page made requests: ' + requests.join(' '));
	console.log(`ok ${first.boxes.length} boxes, zoom, search (${leaf}: ${pct}), reset, callee view; rendered in ${ms} ms`);
	await browser.close();
})().catch((e) => fail(String(e && e.stack || e)));
