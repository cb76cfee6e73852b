import {
  buildSchema,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../schema/index.ts';

// The explorer shows every description: every type, field, argument, enum value and input field
// of the schema has one. GraphQL's own introspection types (__Type, …) and built-in scalars
// (String, …) are graphql-js', not ours.

interface Walk {
  /** `Type`, `Type.field`, `Type.field(arg)`, `Enum.VALUE`, `Input.field` of every element without a description. */
  undescribed: string[];
  total: number;
}

function walk(target: GraphQLSchema): Walk {
  const undescribed: string[] = [];
  let total = 0;
  const check = (name: string, description: string | null | undefined) => {
    total += 1;
    if (!description?.trim()) undescribed.push(name);
  };
  for (const type of Object.values(target.getTypeMap())) {
    if (type.name.startsWith('__') || (isScalarType(type) && isSpecifiedScalarType(type))) continue;
    check(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        check(`${type.name}.${field.name}`, field.description);
        for (const arg of field.args) check(`${type.name}.${field.name}(${arg.name})`, arg.description);
      }
    }
    if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) check(`${type.name}.${field.name}`, field.description);
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.description);
    }
  }
  return { undescribed, total };
}

describe('schema descriptions', () => {
  it('describes every type, field, argument, enum value and input field', () => {
    const { undescribed, total } = walk(schema);
    expect(total, 'schema elements walked').toBeGreaterThan(700);
    expect(undescribed, 'schema elements without a description').toEqual([]);
  });

  it('names what it finds undescribed, wherever it hides', () => {
    const bare = buildSchema(`
      """Described"""
      type Query { a(x: Int): E, """ok""" b(""" ok """ y: In): String }
      enum E { """ok""" ONE TWO }
      """ok"""
      input In { z: Int }
    `);
    expect(walk(bare).undescribed.sort()).toEqual(['E', 'E.TWO', 'In.z', 'Query.a', 'Query.a(x)']);
  });
});
