// A query's complexity as Linear's "Rate limiting" page describes the scoring: a scalar member costs 0.1, an
// object 1, and what a connection returns per record (its `nodes`/`edges`) is multiplied by the page size asked
// for (`first` or `last`, else 50); the total is rounded up. One query may cost at most 10,000 points.
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export function complexityOf(
  schema: GraphQLSchema,
  doc: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  defaultPage: number,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of doc.definitions)
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

  const pageSize = (value: ValueNode | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (value.kind === Kind.INT) return Number(value.value);
    if (value.kind === Kind.VARIABLE) {
      const v = variables[value.name.value];
      return typeof v === 'number' ? v : undefined;
    }
    return undefined;
  };

  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType, seen: Set<string>): number => {
    let cost = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const on = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (on && isCompositeType(on)) cost += walk(sel.selectionSet, on, seen);
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (frag === undefined || seen.has(frag.name.value)) continue;
        const on = schema.getType(frag.typeCondition.name.value);
        if (on && isCompositeType(on))
          cost += walk(frag.selectionSet, on, new Set([...seen, frag.name.value]));
        continue;
      }
      if (sel.name.value.startsWith('__')) continue;
      const fields =
        isObjectType(parent) || isInterfaceType(parent)
          ? (parent.getFields() as Record<string, GraphQLField<unknown, unknown>>)
          : {};
      const def = fields[sel.name.value];
      if (def === undefined) continue;
      const type = getNamedType(def.type);
      if (sel.selectionSet === undefined || !isCompositeType(type)) {
        cost += 0.1;
        continue;
      }
      if (type.name.endsWith('Connection')) {
        const args = new Map(sel.arguments?.map((a) => [a.name.value, a.value]) ?? []);
        const n = pageSize(args.get('first')) ?? pageSize(args.get('last')) ?? defaultPage;
        let perRecord = 0;
        let rest = 0;
        for (const inner of sel.selectionSet.selections) {
          const part = walk({ kind: Kind.SELECTION_SET, selections: [inner] }, type, seen);
          if (inner.kind === Kind.FIELD && (inner.name.value === 'nodes' || inner.name.value === 'edges'))
            perRecord += part;
          else rest += part;
        }
        cost += 1 + rest + n * perRecord;
        continue;
      }
      cost += 1 + walk(sel.selectionSet, type, seen);
    }
    return cost;
  };

  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return 0;
  return Math.ceil(walk(operation.selectionSet, root, new Set()) - 1e-9);
}
