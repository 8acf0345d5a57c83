import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchActions, benchDragTabs } from './actions.bench';
import { benchOutcomes } from './outcome.bench';
import { benchAgent } from './agent.bench';
import { benchBus } from './bus.bench';
import { benchCliStart } from './cli.bench';
import { benchExtract } from './extract.bench';
import { benchMcp } from './mcp.bench';
import { benchMemory } from './memory.bench';
import { benchRoundTrips } from './cdp-rtt.bench';
import { benchConsent } from './consent.bench';
import { benchNative } from './native.bench';
import { PageServer } from './page-server';
import { benchPerception } from './perception.bench';
import { benchSecurity } from './security.bench';
import { benchStop } from './stop.bench';
import { TARGET_PARTS, targetRows, type TargetInputs } from './targets';
import { benchVideo } from './video.bench';

/**
 * `npm run bench`: every figure side by side in one run (never a timed assertion in a test). Results
 * are printed and written to bench/out/results.json.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      // The parts that carry a numeric target, and one table of target, figure and verdict.
      targets: { type: 'boolean', default: false },
      pages: { type: 'string', default: 'form,listing,huge,frames,occlusion' },
      runs: { type: 'string', default: '7' },
      'action-pages': { type: 'string', default: 'form,listing,huge' },
      clicks: { type: 'string', default: '30' },
      typings: { type: 'string', default: '9' },
      states: { type: 'string', default: '200' },
      mixed: { type: 'string', default: '1000' },
      'memory-subjects': { type: 'string', default: 'node,extension,playwright-mcp' },
      'security-rounds': { type: 'string', default: '20' },
      'video-rounds': { type: 'string', default: '5' },
      // Blocks long enough that a recording's one-off start (the extension's offscreen document, a
      // process of its own) does not set a block's median: it is what a recording costs as it runs.
      'video-steps': { type: 'string', default: '30' },
      'video-transports': { type: 'string', default: 'node,extension' },
      'video-framerates': { type: 'string', default: '5' },
      'video-think-ms': { type: 'string', default: '0,300' },
      'mcp-servers': { type: 'string', default: 'tabpilot,playwright-mcp,chrome-devtools-mcp' },
      'mcp-runs': { type: 'string', default: '3' },
      'mcp-clicks': { type: 'string', default: '5' },
      'mcp-chain-rounds': { type: 'string', default: '5' },
      'mcp-chain-calls': { type: 'string', default: '20' },
      'cli-runs': { type: 'string', default: '20' },
      'stop-rounds': { type: 'string', default: '10' },
      'stop-paths': { type: 'string', default: 'node,extension' },
      // Another Node for the CLI's processes (a Node 22 binary, to see its compile cache at work).
      'cli-node': { type: 'string' },
    },
  });
  const picked = values.only?.split(',') ?? [];
  const targets = values.targets === true || picked.includes('targets');
  const only = new Set(
    targets
      ? [...TARGET_PARTS, ...picked.filter((part) => part !== 'targets')]
      : (
          values.only ?? 'bus,rtt,perception,extract,agent,actions,outcome,native,cli,stop,memory,security,video,mcp'
        ).split(','),
  );
  const forTargets: TargetInputs = { states: Number(values.states) };
  const runs = Number(values.runs);
  const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, runs };
  if (only.has('bus')) {
    process.stdout.write('Event bus (one handler, middleware and timeout timer on)\n');
    const bus = await benchBus();
    console.table(bus);
    results['bus'] = bus;
  }
  const pages = new PageServer();
  await pages.start();
  try {
    if (only.has('rtt')) {
      process.stdout.write('CDP round trip: Runtime.evaluate("1") on the form page, 200 calls interleaved\n');
      const rtt = await benchRoundTrips(pages);
      console.table(rtt);
      results['cdp_round_trip'] = rtt;
    }
    if (only.has('perception')) {
      process.stdout.write(
        `Perception: tabpilot state vs Playwright ariaSnapshot({mode: 'ai'}) vs the in-page floor, median of ${runs}\n`,
      );
      const perception = await benchPerception(pages, pages.markers, {
        runs,
        pageNames: (values.pages ?? '').split(','),
      });
      console.table(perception.timings);
      console.table(perception.sizes);
      results['perception'] = perception;
    }
    if (only.has('extract')) {
      process.stdout.write(
        `Extract: the hand-written HTML-to-markdown converter vs turndown + GFM, in the page, median and p90 of ${runs}, and checks of each output\n`,
      );
      const extract = await benchExtract(pages, { runs, pageNames: (values.pages ?? '').split(',') });
      console.table(extract.timings);
      console.table(extract.quality);
      console.table([extract.bundle]);
      results['extract'] = extract;
    }
    if (only.has('agent')) {
      process.stdout.write(
        "Agent: prompt per step (system, task, history, state; tool schemas) beside Playwright MCP's snapshot, and the loop's own time per step with a model that answers at once\n",
      );
      const agent = await benchAgent(pages, { pageNames: (values['action-pages'] ?? '').split(','), steps: 5 });
      console.table(agent);
      results['agent'] = agent;
    }
    if (only.has('actions')) {
      process.stdout.write(
        `Actions: tabpilot tools vs Playwright locators, median of ${values.clicks} clicks and ${values.typings} typings\n`,
      );
      const actions = await benchActions(pages, {
        pageNames: (values['action-pages'] ?? '').split(','),
        clicks: Number(values.clicks),
        typings: Number(values.typings),
      });
      console.table(actions);
      results['actions'] = actions;
      process.stdout.write('Drag: a mouse drag alone, then with another tab open (median of 5)\n');
      const drags = await benchDragTabs(pages, { pageName: 'form', runs: 5 });
      console.table(drags);
      results['drag_tabs'] = drags;
    }
    if (only.has('outcome')) {
      process.stdout.write(
        'Outcomes: an action plain and asked for its verified outcome (median of 10, in turns), the outcome beside the state\n',
      );
      const outcomes = await benchOutcomes(pages, { pageNames: (values['action-pages'] ?? '').split(','), runs: 10 });
      console.table(outcomes);
      results['outcomes'] = outcomes;
    }
    if (only.has('native')) {
      process.stdout.write(
        'Native messaging: tabs round trip over the native host beside the panel port, 1,000 pipelined tabs, a 5 MB answer\n',
      );
      const native = await benchNative(pages);
      console.table(native.round_trip);
      process.stdout.write(
        `native hop added: median ${native.native_hop_added_median_ms} ms, p90 ${native.native_hop_added_p90_ms} ms (target at most 2 ms)\n`,
      );
      console.table(native.pipelined);
      console.table(native.big_answer);
      results['native'] = native;
      forTargets.native = native;
    }
    if (only.has('native') || only.has('consent')) {
      process.stdout.write(
        'Consent: a new connection’s first command and later ones, consent off and on (a program allowed until revoked), and the peer lookup alone\n',
      );
      const consent = await benchConsent();
      console.table(consent.rows);
      process.stdout.write(
        `consent added: first command median ${consent.first_command_added_median_ms} ms, later command median ${consent.later_command_added_median_ms} ms (target: nothing measurable after the first)\n`,
      );
      results['consent'] = consent;
    }
    if (only.has('cli')) {
      process.stdout.write(
        `CLI cold start: new processes, spawn to exit, ${values['cli-runs']} runs each taking turns (after 3 warm-up runs), tabs against a running host\n`,
      );
      const cli = await benchCliStart({
        runs: Number(values['cli-runs']),
        ...(values['cli-node'] === undefined ? {} : { node: values['cli-node'] }),
      });
      process.stdout.write(`${cli.node} (${cli.node_version})\n`);
      console.table(cli.rows);
      results['cli'] = cli;
      forTargets.cli = cli;
    }
    if (only.has('stop')) {
      process.stdout.write(
        `Stop: a long wait, a slow navigation and a stuck page's state, each stopped, ${values['stop-rounds']} rounds; from sending stop (or clicking the panel's Stop) to the in-flight command's CANCELLED answer\n`,
      );
      const stop = await benchStop({
        rounds: Number(values['stop-rounds']),
        paths: (values['stop-paths'] ?? '').split(','),
      });
      console.table(stop);
      results['stop'] = stop;
      forTargets.stop = stop;
    }
    if (only.has('memory')) {
      process.stdout.write(
        `Memory: after ${values.states} whole-page states of the huge page and ${values.mixed} mixed commands, after a forced GC\n`,
      );
      const memory = await benchMemory(pages, {
        states: Number(values.states),
        mixed: Number(values.mixed),
        subjects: (values['memory-subjects'] ?? '').split(','),
      });
      console.table(memory.readings);
      console.table(memory.growth);
      process.stdout.write(
        `Memory without a forced collection, after 0 / ${Math.floor(Number(values.states) / 2)} / ${values.states} states\n`,
      );
      console.table(memory.unforced);
      results['memory'] = memory;
      forTargets.memory = memory;
    }
    if (only.has('security')) {
      process.stdout.write(
        `URL policy: the decision per URL, and navigate / state with the policy off, a prohibited list and an allow list (which holds every request), median and p90 of paired costs over ${values['security-rounds']} rounds\n`,
      );
      const security = await benchSecurity(pages, { rounds: Number(values['security-rounds']) });
      console.table(security.decisions);
      console.table(security.costs);
      results['security'] = security;
    }
    if (only.has('video')) {
      process.stdout.write(
        `Video recording: a click + state loop on a page at rest and on one repainting every frame, without and with recording, ${values['video-rounds']} alternating rounds of ${values['video-steps']} steps, with ${values['video-think-ms']} ms between steps\n`,
      );
      const video = await benchVideo(pages, {
        rounds: Number(values['video-rounds']),
        steps: Number(values['video-steps']),
        transports: (values['video-transports'] ?? '').split(','),
        framerates: (values['video-framerates'] ?? '').split(',').map(Number),
        thinkMs: (values['video-think-ms'] ?? '').split(',').map(Number),
      });
      console.table(video);
      results['video'] = video;
    }
    if (only.has('mcp')) {
      process.stdout.write(
        `MCP servers over stdio, each under the MCP SDK's Client in a headless Chromium of its own (1280x720): tabpilot mcp --launch, Playwright MCP, chrome-devtools-mcp; median / p90 of ${values['mcp-runs']} navigates, snapshots and screenshots and ${values['mcp-clicks']} clicks per page; tokens estimated as characters / 4 (text) and width x height / 750 (images)\n`,
      );
      const mcp = await benchMcp(pages, {
        pageNames: (values['action-pages'] ?? '').split(','),
        servers: (values['mcp-servers'] ?? '').split(','),
        runs: Number(values['mcp-runs']),
        clicks: Number(values['mcp-clicks']),
        chainRounds: Number(values['mcp-chain-rounds']),
        chainCalls: Number(values['mcp-chain-calls']),
      });
      console.table(mcp.tool_lists);
      console.table(mcp.answers);
      console.table(mcp.timings);
      process.stdout.write(
        `One call through the native chain in the extension (form page, a tab per path), ${values['mcp-chain-rounds']} interleaved rounds of ${values['mcp-chain-calls']} calls per path\n`,
      );
      console.table(mcp.chain);
      results['mcp'] = mcp;
    }
  } finally {
    await pages.stop();
  }
  const out = resolve(process.cwd(), 'bench/out');
  mkdirSync(out, { recursive: true });
  writeFileSync(resolve(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`written to ${resolve(out, 'results.json')}\n`);
  if (targets) {
    const rows = targetRows(forTargets);
    process.stdout.write('\nTargets: each figure measured in this run against its target\n');
    console.table(rows);
    const file = resolve(out, 'targets.json');
    writeFileSync(file, `${JSON.stringify({ date: results['date'], node: process.version, rows }, null, 2)}\n`);
    process.stdout.write(`written to ${file}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
