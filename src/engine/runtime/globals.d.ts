// Minimal ambient types for the WebAssembly JS API as Node 20 provides it.
// Invariants: @types/node does not declare WebAssembly and tsconfig's lib has no
// DOM, so this covers exactly what src/engine uses; drop it if "DOM" or
// "WebWorker" is ever added to tsconfig's lib (the declarations would clash).

declare namespace WebAssembly {
  type ImportExportKind = 'function' | 'global' | 'memory' | 'table' | 'tag';

  interface ModuleImportDescriptor {
    module: string;
    name: string;
    kind: ImportExportKind;
  }

  interface ModuleExportDescriptor {
    name: string;
    kind: ImportExportKind;
  }

  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
    static imports(module: Module): ModuleImportDescriptor[];
    static exports(module: Module): ModuleExportDescriptor[];
  }

  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }

  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer | SharedArrayBuffer;
    grow(deltaPages: number): number;
  }

  type Imports = Record<string, Record<string, unknown>>;

  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: Record<string, unknown>;
  }

  function compile(bytes: ArrayBufferView | ArrayBuffer): Promise<Module>;
}
