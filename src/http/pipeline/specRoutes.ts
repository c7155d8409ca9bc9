import { fileURLToPath } from 'node:url';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import type * as OpenApiValidator from 'express-openapi-validator';

const SPEC_PATH = fileURLToPath(new URL('../../../openapi/openapi.yaml', import.meta.url));

type ValidatorOptions = Parameters<typeof OpenApiValidator.middleware>[0];
/** The spec as the validator takes it (`apiSpec`), its `$ref`s resolved. */
export type ApiDoc = Exclude<ValidatorOptions['apiSpec'], string>;
export type PathItemObject = NonNullable<NonNullable<ApiDoc['paths']>[string]>;
export type OperationObject = NonNullable<PathItemObject['get']>;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type Method = (typeof METHODS)[number];

/** One path of the spec, as written there (`/v1/customers/payroll/requests/{requestId}`), with its operations. */
export interface SpecRoute {
  path: string;
  pathItem: PathItemObject;
  /** The operationId of each method the path serves. */
  operationIds: Partial<Record<Method, string>>;
}

let loading: Promise<{ apiDoc: ApiDoc; router: SpecRouter }> | undefined;

/**
 * The spec, read once per process with every `$ref` resolved (it is split across files), and its
 * router: the routes, the operations' traits and each path's validator come from it.
 */
export function specRouter(): Promise<{ apiDoc: ApiDoc; router: SpecRouter }> {
  loading ??= dereference(SPEC_PATH).then((spec) => {
    const apiDoc = spec as unknown as ApiDoc;
    return { apiDoc, router: new SpecRouter(apiDoc) };
  });
  return loading;
}

/**
 * Finds the path of the spec a request's path belongs to: a path written without parameters by
 * a lookup, the others by trying their patterns in the validator's order (literal segments before
 * parameters, so `/payouts/estimate` is not taken for a `{payoutId}`). It matches as the
 * validator's own routing does with Express's default settings (any case, an optional trailing
 * slash); the validator of the path found still checks the path before anything runs.
 */
export class SpecRouter {
  private readonly literal = new Map<string, SpecRoute>();
  private readonly patterns: Array<{ pattern: RegExp; route: SpecRoute }> = [];

  constructor(apiDoc: ApiDoc) {
    const routes = Object.entries(apiDoc.paths ?? {}).map(([path, pathItem]) => routeOf(path, pathItem!));
    routes.sort((a, b) => bySpecificity(a.path, b.path));
    for (const route of routes) {
      if (!route.path.includes('{')) this.literal.set(route.path, route);
      this.patterns.push({ pattern: patternOf(route.path), route });
    }
  }

  find(path: string): SpecRoute | undefined {
    const literal = this.literal.get(path);
    if (literal) return literal;
    for (const { pattern, route } of this.patterns) if (pattern.test(path)) return route;
    return undefined;
  }

  get routes(): SpecRoute[] {
    return this.patterns.map(({ route }) => route);
  }
}

function routeOf(path: string, pathItem: PathItemObject): SpecRoute {
  const operationIds: SpecRoute['operationIds'] = {};
  for (const method of METHODS) {
    const id = pathItem[method]?.operationId;
    if (id) operationIds[method] = id;
  }
  return { path, pathItem, operationIds };
}

/** The validator's order of its routes: a parameter sorts after any literal segment, a longer path before its prefix. */
function bySpecificity(a: string, b: string): number {
  const [first, second] = [a, b].map((path) => path.replace(/\{([^}]*)\}/g, '~$1'));
  if (first!.startsWith(second!)) return -1;
  if (second!.startsWith(first!)) return 1;
  return first! > second! ? 1 : -1;
}

function patternOf(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}
