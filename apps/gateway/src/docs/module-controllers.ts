import type { DynamicModule, Type } from '@nestjs/common';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule> | undefined;

/** Controllers of a module (static or dynamic) and of every module it imports. */
export function controllersOf(module: ModuleRef, seen = new Set<unknown>()): Type[] {
  if (!module || module instanceof Promise) return [];
  const type = typeof module === 'function' ? module : module.module;
  const key = typeof module === 'function' ? module : module;
  if (seen.has(key)) return [];
  seen.add(key);
  const own = [...((Reflect.getMetadata('controllers', type) ?? []) as Type[])];
  const imports = [...((Reflect.getMetadata('imports', type) ?? []) as ModuleRef[])];
  if (typeof module !== 'function') {
    own.push(...((module.controllers ?? []) as Type[]));
    imports.push(...((module.imports ?? []) as ModuleRef[]));
  }
  return [...own, ...imports.flatMap((m) => controllersOf(m, seen))];
}
