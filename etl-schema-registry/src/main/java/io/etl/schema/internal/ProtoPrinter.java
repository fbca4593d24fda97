package io.etl.schema.internal;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a Protobuf file descriptor as {@code .proto} source, the form a schema registry stores: syntax,
 * package, imports, messages (nested ones, oneofs, maps), enums. Options other than {@code java_package},
 * {@code java_outer_classname} and {@code java_multiple_files} are left out; they do not change the wire
 * format.
 */
final class ProtoPrinter {

    private ProtoPrinter() {}

    static String print(FileDescriptor file) {
        StringBuilder out = new StringBuilder();
        String syntax = file.toProto().getSyntax();
        boolean proto3 = "proto3".equals(syntax);
        out.append("syntax = \"")
                .append(proto3 ? "proto3" : syntax.isEmpty() ? "proto2" : syntax)
                .append("\";\n");
        if (!file.getPackage().isEmpty()) {
            out.append("package ").append(file.getPackage()).append(";\n");
        }
        for (FileDescriptor dependency : file.getDependencies()) {
            out.append("import \"").append(dependency.getName()).append("\";\n");
        }
        var options = file.getOptions();
        if (options.hasJavaPackage()) {
            out.append("option java_package = \"")
                    .append(options.getJavaPackage())
                    .append("\";\n");
        }
        if (options.hasJavaOuterClassname()) {
            out.append("option java_outer_classname = \"")
                    .append(options.getJavaOuterClassname())
                    .append("\";\n");
        }
        if (options.hasJavaMultipleFiles()) {
            out.append("option java_multiple_files = ")
                    .append(options.getJavaMultipleFiles())
                    .append(";\n");
        }
        for (Descriptor message : file.getMessageTypes()) {
            out.append('\n');
            message(out, message, "", proto3);
        }
        for (EnumDescriptor e : file.getEnumTypes()) {
            out.append('\n');
            enumeration(out, e, "");
        }
        return out.toString();
    }

    private static void message(StringBuilder out, Descriptor message, String indent, boolean proto3) {
        out.append(indent).append("message ").append(message.getName()).append(" {\n");
        String inner = indent + "  ";
        List<OneofDescriptor> printed = new ArrayList<>();
        for (FieldDescriptor field : message.getFields()) {
            OneofDescriptor oneof = field.getRealContainingOneof();
            if (oneof != null) {
                if (!printed.contains(oneof)) {
                    printed.add(oneof);
                    out.append(inner).append("oneof ").append(oneof.getName()).append(" {\n");
                    for (FieldDescriptor member : oneof.getFields()) {
                        field(out, member, inner + "  ", proto3, true);
                    }
                    out.append(inner).append("}\n");
                }
                continue;
            }
            field(out, field, inner, proto3, false);
        }
        for (Descriptor nested : message.getNestedTypes()) {
            if (!nested.getOptions().getMapEntry()) {
                message(out, nested, inner, proto3);
            }
        }
        for (EnumDescriptor e : message.getEnumTypes()) {
            enumeration(out, e, inner);
        }
        out.append(indent).append("}\n");
    }

    private static void field(
            StringBuilder out, FieldDescriptor field, String indent, boolean proto3, boolean inOneof) {
        out.append(indent);
        if (field.isMapField()) {
            Descriptor entry = field.getMessageType();
            out.append("map<")
                    .append(type(entry.findFieldByName("key")))
                    .append(", ")
                    .append(type(entry.findFieldByName("value")))
                    .append("> ");
        } else {
            if (field.isRepeated()) {
                out.append("repeated ");
            } else if (!inOneof) {
                FieldDescriptorProto proto = field.toProto();
                if (proto3 && proto.getProto3Optional()) {
                    out.append("optional ");
                } else if (!proto3) {
                    out.append(field.isRequired() ? "required " : "optional ");
                }
            }
            out.append(type(field)).append(' ');
        }
        out.append(field.getName()).append(" = ").append(field.getNumber());
        if (field.isPacked() && !proto3) {
            out.append(" [packed = true]");
        }
        out.append(";\n");
    }

    private static String type(FieldDescriptor field) {
        return switch (field.getType()) {
            case MESSAGE, GROUP -> "." + field.getMessageType().getFullName();
            case ENUM -> "." + field.getEnumType().getFullName();
            default -> field.getType().name().toLowerCase(Locale.ROOT);
        };
    }

    private static void enumeration(StringBuilder out, EnumDescriptor e, String indent) {
        out.append(indent).append("enum ").append(e.getName()).append(" {\n");
        for (EnumValueDescriptor value : e.getValues()) {
            out.append(indent)
                    .append("  ")
                    .append(value.getName())
                    .append(" = ")
                    .append(value.getNumber())
                    .append(";\n");
        }
        out.append(indent).append("}\n");
    }
}
