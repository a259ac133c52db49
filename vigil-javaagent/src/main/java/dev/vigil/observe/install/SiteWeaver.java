package dev.vigil.observe.install;

import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves the calls to {@code Bridge} into the methods of one class file, straight with ASM (the
 * copy Byte Buddy ships): a precompiled template of what Byte Buddy's {@code Advice} would inline,
 * without parsing advice classes or building Byte Buddy's type writer, which cost a short process
 * 150 ms or more of its start (docs/BENCHMARKS.md). Nothing else about the class changes, so a
 * class already loaded can be retransformed too.
 *
 * <p>Each woven method becomes, in effect:
 *
 * <pre>{@code
 * Object frame;
 * try { frame = Bridge.enter(site, this or null, new Object[] {args...} or null); }
 * catch (Throwable t) { frame = null; }
 * try {
 *   ...the original code; before each return:
 *   try { Bridge.exit(site, frame, boxed result or null, null); } catch (Throwable t) {}
 * } catch (Throwable thrown) {
 *   try { Bridge.exit(site, frame, null, thrown); } catch (Throwable t) {}
 *   throw thrown;
 * }
 * }</pre>
 *
 * <p>Two locals are added after the method's own ({@code max_locals}, read in a first pass): the
 * frame, live through the whole original code, and a slot for the result or the throwable, live
 * only inside the woven exit. The original locals and instructions keep their indices; each
 * original stack-map frame gains the frame local, and the woven code's own frames name only the two
 * added locals, so nothing about the original code's types needs to be known.
 */
final class SiteWeaver {
  /** Where a method's calls go: its site, and whether its arguments are passed. */
  record Weave(int siteId, boolean withArgs) {}

  private static final String BRIDGE = "dev/vigil/observe/bridge/Bridge";
  private static final String ENTER = "(ILjava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;";
  private static final String EXIT =
      "(ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Throwable;)V";
  private static final String THROWABLE = "java/lang/Throwable";
  private static final String OBJECT = "java/lang/Object";

  /** No load before a woven exit's leaving instruction (a {@code void} return). */
  private static final int NO_LOAD = -1;

  private SiteWeaver() {}

  /** The key of a method in the map {@link #weave} takes. */
  static String key(String name, String descriptor) {
    return name + descriptor;
  }

  /**
   * The class file with the calls woven into the methods {@code methods} names (by {@link #key}).
   * Methods without code are left as they are.
   */
  static byte[] weave(byte[] classFile, Map<String, Weave> methods) {
    ClassReader reader = new ClassReader(classFile);
    Map<String, Integer> maxLocals = maxLocals(reader, methods);
    ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
    reader.accept(new Weaving(writer, methods, maxLocals), ClassReader.EXPAND_FRAMES);
    return writer.toByteArray();
  }

  /** {@code max_locals} of each method to be woven that has code. */
  private static Map<String, Integer> maxLocals(ClassReader reader, Map<String, Weave> methods) {
    Map<String, Integer> out = new HashMap<>();
    reader.accept(
        new ClassVisitor(Opcodes.ASM9) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            String key = key(name, descriptor);
            if (!methods.containsKey(key)) {
              return null;
            }
            return new MethodVisitor(Opcodes.ASM9) {
              @Override
              public void visitMaxs(int maxStack, int max) {
                out.put(key, max);
              }
            };
          }
        },
        ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return out;
  }

  /** The class visitor that hands each method to be woven to a {@link WovenMethod}. */
  private static final class Weaving extends ClassVisitor {
    private final Map<String, Weave> methods;
    private final Map<String, Integer> maxLocals;
    private String owner;
    private boolean frames;

    Weaving(ClassVisitor next, Map<String, Weave> methods, Map<String, Integer> maxLocals) {
      super(Opcodes.ASM9, next);
      this.methods = methods;
      this.maxLocals = maxLocals;
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      owner = name;
      frames = (version & 0xFFFF) >= Opcodes.V1_6;
      super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
      String key = key(name, descriptor);
      Weave weave = methods.get(key);
      Integer locals = maxLocals.get(key);
      if (weave == null || locals == null || name.charAt(0) == '<') {
        return next;
      }
      return new WovenMethod(next, access, owner, descriptor, weave, locals, frames);
    }
  }

  /** One method's weaving. */
  private static final class WovenMethod extends MethodVisitor {
    private final boolean isStatic;
    private final String owner;
    private final Type[] arguments;
    private final Type returned;
    private final Weave weave;
    private final boolean frames;

    /** The frame local, just past the method's own locals. */
    private final int frameSlot;

    /** The local for the result or the throwable, after the frame local. */
    private final int valueSlot;

    private final Label bodyStart = new Label();

    WovenMethod(
        MethodVisitor next,
        int access,
        String owner,
        String descriptor,
        Weave weave,
        int maxLocals,
        boolean frames) {
      super(Opcodes.ASM9, next);
      this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
      this.owner = owner;
      this.arguments = Type.getArgumentTypes(descriptor);
      this.returned = Type.getReturnType(descriptor);
      this.weave = weave;
      this.frames = frames;
      this.frameSlot = maxLocals;
      this.valueSlot = maxLocals + 1;
    }

    @Override
    public void visitCode() {
      super.visitCode();
      Label start = new Label();
      Label end = new Label();
      Label handler = new Label();
      Label body = new Label();
      super.visitTryCatchBlock(start, end, handler, THROWABLE);
      super.visitLabel(start);
      push(weave.siteId());
      if (isStatic) {
        super.visitInsn(Opcodes.ACONST_NULL);
      } else {
        super.visitVarInsn(Opcodes.ALOAD, 0);
      }
      if (weave.withArgs()) {
        argumentArray();
      } else {
        super.visitInsn(Opcodes.ACONST_NULL);
      }
      super.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "enter", ENTER, false);
      super.visitVarInsn(Opcodes.ASTORE, frameSlot);
      super.visitLabel(end);
      super.visitJumpInsn(Opcodes.GOTO, body);
      super.visitLabel(handler);
      frame(entryLocals(false), THROWABLE);
      super.visitInsn(Opcodes.POP);
      super.visitInsn(Opcodes.ACONST_NULL);
      super.visitVarInsn(Opcodes.ASTORE, frameSlot);
      super.visitLabel(body);
      frame(entryLocals(true), null);
      // an original frame may follow at the code's first instruction: two frames at one offset
      // are not allowed
      super.visitInsn(Opcodes.NOP);
      super.visitLabel(bodyStart);
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
      if (type != Opcodes.F_NEW) {
        throw new IllegalStateException("frames are read expanded");
      }
      Object[] locals = padded(local, numLocal, 1);
      locals[locals.length - 1] = OBJECT;
      super.visitFrame(Opcodes.F_NEW, locals.length, locals, numStack, stack);
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
        exitOnReturn(opcode);
      } else {
        super.visitInsn(opcode);
      }
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      Label bodyEnd = new Label();
      Label handler = new Label();
      super.visitLabel(bodyEnd);
      super.visitTryCatchBlock(bodyStart, bodyEnd, handler, THROWABLE);
      super.visitLabel(handler);
      frame(exitLocals(null), THROWABLE);
      super.visitVarInsn(Opcodes.ASTORE, valueSlot);
      exitThenLeave(THROWABLE, true, Opcodes.ALOAD, Opcodes.ATHROW);
      super.visitMaxs(maxStack, maxLocals);
    }

    /**
     * Before a return: the result kept aside, the exit call, the result put back and returned.
     * Nothing jumps into the normal path, so whatever else the original code left on the operand
     * stack stays there, as without Vigil.
     */
    private void exitOnReturn(int opcode) {
      boolean isVoid = opcode == Opcodes.RETURN;
      if (!isVoid) {
        super.visitVarInsn(returned.getOpcode(Opcodes.ISTORE), valueSlot);
      }
      exitThenLeave(
          isVoid ? null : frameType(returned),
          false,
          isVoid ? NO_LOAD : returned.getOpcode(Opcodes.ILOAD),
          opcode);
    }

    /**
     * {@code Bridge.exit} with what the value slot holds ({@code held}, its frame type, or null
     * when it holds nothing): the throwable when {@code thrown}, else the result, boxed. Any
     * throwable from the call is dropped; the method then leaves on both paths by {@code load} of
     * the value slot (unless {@link #NO_LOAD}) and {@code leave}, a return or {@code athrow}.
     */
    private void exitThenLeave(Object held, boolean thrown, int load, int leave) {
      Label start = new Label();
      Label end = new Label();
      Label suppressed = new Label();
      super.visitTryCatchBlock(start, end, suppressed, THROWABLE);
      super.visitLabel(start);
      push(weave.siteId());
      super.visitVarInsn(Opcodes.ALOAD, frameSlot);
      if (thrown) {
        super.visitInsn(Opcodes.ACONST_NULL);
        super.visitVarInsn(Opcodes.ALOAD, valueSlot);
      } else {
        if (held == null) {
          super.visitInsn(Opcodes.ACONST_NULL);
        } else {
          super.visitVarInsn(returned.getOpcode(Opcodes.ILOAD), valueSlot);
          box(returned);
        }
        super.visitInsn(Opcodes.ACONST_NULL);
      }
      super.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "exit", EXIT, false);
      super.visitLabel(end);
      leave(load, leave);
      super.visitLabel(suppressed);
      frame(exitLocals(held), THROWABLE);
      super.visitInsn(Opcodes.POP);
      leave(load, leave);
    }

    private void leave(int load, int leave) {
      if (load != NO_LOAD) {
        super.visitVarInsn(load, valueSlot);
      }
      super.visitInsn(leave);
    }

    /** An {@code Object[]} of the arguments, primitives boxed. */
    private void argumentArray() {
      push(arguments.length);
      super.visitTypeInsn(Opcodes.ANEWARRAY, OBJECT);
      int slot = isStatic ? 0 : 1;
      for (int i = 0; i < arguments.length; i++) {
        super.visitInsn(Opcodes.DUP);
        push(i);
        super.visitVarInsn(arguments[i].getOpcode(Opcodes.ILOAD), slot);
        box(arguments[i]);
        super.visitInsn(Opcodes.AASTORE);
        slot += arguments[i].getSize();
      }
    }

    /** The locals at the method's start: the receiver and the arguments, then the frame local. */
    private Object[] entryLocals(boolean withFrame) {
      int n = arguments.length + (isStatic ? 0 : 1);
      Object[] start = new Object[n];
      int i = 0;
      if (!isStatic) {
        start[i++] = owner;
      }
      for (Type a : arguments) {
        start[i++] = frameType(a);
      }
      if (!withFrame) {
        return padded(start, n, 0);
      }
      Object[] locals = padded(start, n, 1);
      locals[locals.length - 1] = OBJECT;
      return locals;
    }

    /**
     * The locals inside a woven exit: the original ones unknown (top), the frame local, and the
     * value slot holding {@code value} when not null.
     */
    private Object[] exitLocals(Object value) {
      Object[] locals = padded(new Object[0], 0, value == null ? 1 : 2);
      locals[frameSlot] = OBJECT;
      if (value != null) {
        locals[frameSlot + 1] = value;
      }
      return locals;
    }

    /**
     * {@code local}'s first {@code n} entries, then top up to the method's own {@code max_locals}
     * slots (a long or a double takes two slots and one entry), then {@code extra} empty entries.
     */
    private Object[] padded(Object[] local, int n, int extra) {
      int slots = 0;
      for (int i = 0; i < n; i++) {
        slots += local[i] == Opcodes.LONG || local[i] == Opcodes.DOUBLE ? 2 : 1;
      }
      int tops = Math.max(0, frameSlot - slots);
      Object[] out = new Object[n + tops + extra];
      System.arraycopy(local, 0, out, 0, n);
      for (int i = n; i < n + tops; i++) {
        out[i] = Opcodes.TOP;
      }
      return out;
    }

    private void frame(Object[] locals, String onStack) {
      if (!frames) {
        return;
      }
      Object[] stack = onStack == null ? new Object[0] : new Object[] {onStack};
      super.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
    }

    private void push(int value) {
      if (value >= -1 && value <= 5) {
        super.visitInsn(Opcodes.ICONST_0 + value);
      } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
        super.visitIntInsn(Opcodes.BIPUSH, value);
      } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
        super.visitIntInsn(Opcodes.SIPUSH, value);
      } else {
        super.visitLdcInsn(value);
      }
    }

    private void box(Type type) {
      String wrapper =
          switch (type.getSort()) {
            case Type.BOOLEAN -> "java/lang/Boolean";
            case Type.CHAR -> "java/lang/Character";
            case Type.BYTE -> "java/lang/Byte";
            case Type.SHORT -> "java/lang/Short";
            case Type.INT -> "java/lang/Integer";
            case Type.FLOAT -> "java/lang/Float";
            case Type.LONG -> "java/lang/Long";
            case Type.DOUBLE -> "java/lang/Double";
            default -> null;
          };
      if (wrapper != null) {
        super.visitMethodInsn(
            Opcodes.INVOKESTATIC,
            wrapper,
            "valueOf",
            "(" + type.getDescriptor() + ")L" + wrapper + ";",
            false);
      }
    }

    /** How a stack-map frame names a value of {@code type}. */
    private static Object frameType(Type type) {
      return switch (type.getSort()) {
        case Type.BOOLEAN, Type.CHAR, Type.BYTE, Type.SHORT, Type.INT -> Opcodes.INTEGER;
        case Type.FLOAT -> Opcodes.FLOAT;
        case Type.LONG -> Opcodes.LONG;
        case Type.DOUBLE -> Opcodes.DOUBLE;
        case Type.ARRAY -> type.getDescriptor();
        default -> type.getInternalName();
      };
    }
  }
}
