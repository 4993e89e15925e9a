import { OrderNode } from './OrderNode';

/**
 * The argument of a command invoked on `tree`, if it is one of that tree's order nodes: a node of another account's
 * tree (the same order id elsewhere) is not. `OrderNode` is one class at run time in every bundle (see `esbuild.js`).
 */
export function orderNodeOf(tree: object, arg: unknown): OrderNode | undefined {
  return arg instanceof OrderNode && arg.owner === tree ? arg : undefined;
}
