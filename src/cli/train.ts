// `svc train`: trains the model from the shared data (default ../shared next to the package) and
// writes a model folder (default models/<name>-<version>, which becomes models/DEFAULT). The
// training code is loaded only when this command runs.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { PACKAGE_ROOT } from '../config.js';

export function registerTrain(program: Command): void {
  program
    .command('train')
    .description('Train the model from the shared data and write a model folder')
    .option('--data <dir>', 'shared data folder (holding bench/ and data/)', path.resolve(PACKAGE_ROOT, '..', 'shared'))
    .option('--out <dir>', 'model folder to write (default models/<name>-<version>)')
    .option('--name <name>', 'model name', 'svc-mh')
    .option('--model-version <version>', 'model version', '1.18.2')
    .option('--seed <n>', 'random seed', '1')
    .option('--folds <k>', 'cross-validation folds', '5')
    .option('--sample <n>', 'train on n questions per suite and their documents only (quick, small model)')
    .option('--threads <n>', 'encoding worker threads')
    .option('--no-default', 'do not point models/DEFAULT at the new folder')
    .action(
      async (o: {
        data: string;
        out?: string;
        name: string;
        modelVersion: string;
        seed: string;
        folds: string;
        sample?: string;
        threads?: string;
        default: boolean;
      }) => {
        const { train } = await import('../train/index.js');
        const outDir = o.out ?? path.join(PACKAGE_ROOT, 'models', `${o.name}-${o.modelVersion}`);
        const { dir } = await train({
          dataDir: path.resolve(o.data),
          outDir,
          name: o.name,
          version: o.modelVersion,
          seed: Number(o.seed),
          folds: Number(o.folds),
          sample: o.sample ? Number(o.sample) : undefined,
          threads: o.threads ? Number(o.threads) : undefined,
          log: (m) => process.stderr.write(`${m}\n`),
        });
        const models = path.join(PACKAGE_ROOT, 'models');
        if (o.default && path.dirname(dir) === models) fs.writeFileSync(path.join(models, 'DEFAULT'), `${path.basename(dir)}\n`);
        process.stdout.write(`${dir}\n`);
      },
    );
}
