// The training's entry (`svc train`, `npm run train`): every learned part of the model, fitted and
// cross-validated, written as a model folder.
export { type TrainOptions, train } from './train.js';
