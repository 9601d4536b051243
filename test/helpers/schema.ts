// Validates response bodies against the component schemas of the served OpenAPI document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export class SchemaChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(doc: Record<string, unknown>) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
  }

  /** Errors of `value` against components.schemas[name], or [] when valid. */
  errors(name: string, value: unknown): string[] {
    let v = this.cache.get(name);
    if (!v) {
      v = this.ajv.getSchema(`openapi.json#/components/schemas/${name}`)!;
      this.cache.set(name, v);
    }
    return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }
}
