import { type ASTNode, Kind, parse, print, visit } from 'graphql';

/**
 * A GraphQL SDL without its prose: every description goes, and `@deprecated` keeps no reason (the member is
 * still deprecated). Types, fields, arguments and their defaults, enums, inputs, unions, interfaces, scalars,
 * directive definitions and applications stay, in the SDL's own order, so graphql-js builds the same schema
 * from it and validates the same queries.
 */
export function reduceSdl(sdl: string): string {
  const reduced = visit(parse(sdl, { noLocation: true }), {
    enter(node: ASTNode) {
      if (node.kind === Kind.DIRECTIVE && node.name.value === 'deprecated') return { ...node, arguments: [] };
      if ('description' in node && node.description !== undefined) return { ...node, description: undefined };
      return undefined;
    },
  });
  return `${print(reduced)}\n`;
}
