// `npm run eval -- --generalisation [--out docs/generalisation.md] [--runs FILE] [--sample N] [--squad-queries N] [--held-out S,...]`:
// the generalisation table of src/train/generalisation.ts (leave-one-suite-out, titles removed, no
// answer in the store), beside the in-suite cross-validation of the shipped model, written as
// markdown with the date, the command and how long it took. --sample N runs it on N questions per
// suite (a quick check that it runs; its figures mean nothing); --runs FILE writes every held-out
// question's searches as JSON lines, for analysis; --held-out names the suites to hold out (default
// all four), for a quicker look at one.
import fs from 'node:fs';
import path from 'node:path';
import { defaultModelUri, PACKAGE_ROOT } from '../src/config.js';
import { readModelFolder } from '../src/engine/model/index.js';
import { type ConditionFigures, generalisation, type SuiteGeneralisation } from '../src/train/generalisation.js';

const f3 = (v: number) => (Number.isNaN(v) ? 'n/a' : v.toFixed(3));
const passes = (c: ConditionFigures) => (c.ece10 <= Math.max(0.05, c.eceFloor90) ? 'yes' : 'no');
const found = (s: SuiteGeneralisation, c: ConditionFigures) =>
  (s.judge === 'answer-passage' ? ['@1', '@5', '@10'] : ['@2', '@5', '@10']).map((k) => f3(c.found[k])).join(' / ');

/** The shipped model's in-suite cross-validated figures of a suite (squad-articles-dev: its training counterpart, SQuAD-train). */
function crossValidated(suite: string): string {
  const { manifest } = readModelFolder(defaultModelUri());
  const cv = (
    manifest.metrics?.cross_validation as { suites?: Record<string, { found_at: Record<string, number>; ece10: number }> } | undefined
  )?.suites;
  const m = cv?.[suite === 'squad-articles-dev' ? 'squad-train' : suite];
  if (!m) return 'n/a';
  return `${['@2', '@5', '@10'].map((k) => f3(m.found_at[k])).join(' / ')}, ECE ${f3(m.ece10)}${suite === 'squad-articles-dev' ? ' (SQuAD-train)' : ''}`;
}

/** A markdown table: a header row, its rule, and one row per entry. */
function table(header: string[], rows: string[][]): string {
  return [header, header.map(() => '---'), ...rows].map((c) => `| ${c.join(' | ')} |`).join('\n');
}

/** A condition's figures as table cells: found@k, ECE, its floor, whether it passes, mean hops. */
const conditionCells = (s: SuiteGeneralisation, c: ConditionFigures) => [
  found(s, c),
  f3(c.ece10),
  f3(c.eceFloor90),
  passes(c),
  c.meanHops.toFixed(2),
];

export function generalisationMarkdown(
  suites: SuiteGeneralisation[],
  run: { date: string; minutes: number; command: string; sample?: number },
): string {
  const { manifest } = readModelFolder(defaultModelUri());
  const figures = ['ECE@10', 'floor', 'passes', 'mean hops'];
  return [
    `# Generalisation: ${run.date}`,
    '',
    `\`${run.command}\`, ${run.minutes.toFixed(0)} min on this 2-core machine${run.sample ? ` (a sample of ${run.sample} questions per suite: the figures mean nothing)` : ''}. The code trains as \`npm run train\` trains ${manifest.name}@${manifest.version}; the in-suite column is that model's own 5-fold cross-validation (its manifest). A suite's calibration passes when ECE@10 <= max(0.05, floor), the floor being the 90th percentile of the ECE a perfectly calibrated confidence shows on the same confidences (1,000 seeded draws).`,
    '',
    '## Held out: each suite asked of a model fitted without its questions',
    '',
    table(
      ['suite', 'queries', 'all-gold @2 / @5 / @10 (squad: hit @1 / @5 / @10)', ...figures, 'in-suite CV @2 / @5 / @10'],
      suites.map((s) => [s.suite, String(s.loso.queries), ...conditionCells(s, s.loso), crossValidated(s.suite)]),
    ),
    '',
    '## Untitled: the same, over the wiki-pool with every title removed (first line and metadata.title)',
    '',
    table(
      ['suite', 'all-gold @2 / @5 / @10', ...figures],
      suites.flatMap((s) => (s.untitled ? [[s.suite, ...conditionCells(s, s.untitled)]] : [])),
    ),
    '',
    '## No answer in the store (held-out models)',
    '',
    'Mean confidence of the questions asked with their own documents hidden (all of them, and those whose answer no other document of the store holds: `answer absent`), and asked of a store on other subjects; AUROC of the runs that found their evidence against each.',
    '',
    table(
      [
        'suite',
        'hidden: mean confidence',
        'AUROC',
        'answer absent: questions',
        'mean confidence',
        'AUROC',
        'other subjects',
        'mean confidence',
        'AUROC',
        'found: mean confidence',
      ],
      suites.map((s) => [
        s.suite,
        f3(s.noAnswer.hiddenMean),
        f3(s.noAnswer.hiddenAuroc),
        String(s.noAnswer.absentQuestions),
        f3(s.noAnswer.absentMean),
        f3(s.noAnswer.absentAuroc),
        s.noAnswer.otherStore,
        f3(s.noAnswer.otherMean),
        f3(s.noAnswer.otherAuroc),
        f3(s.loso.confFound),
      ]),
    ),
    '',
    ...paragraphTable(suites),
  ].join('\n');
}

/** The long-document suites asked with the passages of each question's own paragraph hidden (none: no lines). */
function paragraphTable(suites: SuiteGeneralisation[]): string[] {
  const long = suites.filter((s) => s.noAnswer.paragraphMean !== undefined);
  if (long.length === 0) return [];
  return [
    'A question asked of its article with the passages of its own paragraph hidden: the document is there and does not say it (SQuAD 2.0-style).',
    '',
    table(
      ['suite', 'paragraph hidden: mean confidence', 'AUROC', 'found: mean confidence'],
      long.map((s) => [
        s.suite,
        f3(s.noAnswer.paragraphMean ?? Number.NaN),
        f3(s.noAnswer.paragraphAuroc ?? Number.NaN),
        f3(s.loso.confFound),
      ]),
    ),
    '',
  ];
}

export async function runGeneralisation(args: {
  out?: string;
  runs?: string;
  sample?: string;
  'squad-queries'?: string;
  'held-out'?: string;
  threads?: string;
}): Promise<void> {
  const started = performance.now();
  const sample = args.sample ? Number(args.sample) : undefined;
  const suites = await generalisation({
    dataDir: path.resolve(PACKAGE_ROOT, '..', 'shared'),
    seed: 1,
    sample,
    squadQueries: args['squad-queries'] ? Number(args['squad-queries']) : undefined,
    threads: args.threads ? Number(args.threads) : undefined,
    heldOut: args['held-out']?.split(','),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  const command = `npm run eval -- --generalisation${sample ? ` --sample ${sample}` : ''}${args['squad-queries'] ? ` --squad-queries ${args['squad-queries']}` : ''}${args['held-out'] ? ` --held-out ${args['held-out']}` : ''}`;
  const md = generalisationMarkdown(suites, {
    date: new Date().toISOString().slice(0, 10),
    minutes: (performance.now() - started) / 60000,
    command,
    sample,
  });
  if (args.out) fs.writeFileSync(args.out, md);
  if (args.runs)
    fs.writeFileSync(args.runs, `${suites.flatMap((s) => s.questions.map((q) => JSON.stringify({ suite: s.suite, ...q }))).join('\n')}\n`);
  process.stdout.write(md);
  if (args.out) process.stderr.write(`wrote ${args.out}\n`);
}
