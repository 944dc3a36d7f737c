package guinote.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader and writer (the JDK has none).
 *
 * <p>Reading follows RFC 8259 with the stricter rules of I-JSON (RFC 7493), as the protocol asks
 * (docs/checking/protocol.md, "Transport"): no NaN or Infinity, no lone surrogate, no number beyond
 * the range of a double, no member name twice in one object, at most 254 levels of nesting.
 * Values come out as {@code Map<String, Object>} (members in their order), {@code List<Object>},
 * {@code String}, {@code Long} (a number with no fraction and no exponent that fits a long),
 * {@code Double} (any other number), {@code Boolean} and {@code null}. So an id written {@code 1.0}
 * is a Double, not an integer, which is what the protocol wants.
 *
 * <p>Writing accepts the same types (any {@code Number}, any {@code Map} with string keys, any
 * {@code List}), plus {@link Writable} objects (the message records of {@link Protocol}). It never
 * writes a non-finite number (that would be garbage to the harness): it throws instead.
 */
public final class Json {
    private Json() {}

    /** The deepest nesting of arrays and objects I-JSON readers must accept, and we accept no more. */
    public static final int MAX_DEPTH = 254;

    /** An object that knows its JSON form (a Map, List, String, Number, Boolean or null). */
    public interface Writable {
        Object toJson();
    }

    /**
     * JSON text written as it is: a value written earlier (with {@link #write}), kept as it was then
     * even if the object it came from changed since (a batch answer's steps: see {@link Batch}).
     */
    public record Raw(String text) {}

    /** Text that is not strict JSON; the message says what and where (a character offset). */
    public static final class ParseError extends Exception {
        private static final long serialVersionUID = 1L;

        public ParseError(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------------------------ reading

    /** Parses one complete JSON text (surrounding whitespace allowed, nothing else). */
    public static Object parse(String text) throws ParseError {
        Reader reader = new Reader(text);
        reader.skipWhitespace();
        Object value = reader.value(0);
        reader.skipWhitespace();
        if (reader.pos < text.length()) {
            throw reader.error("unexpected " + reader.describe() + " after the value");
        }
        return value;
    }

    private static final class Reader {
        private final String text;
        private int pos;

        Reader(String text) {
            this.text = text;
        }

        ParseError error(String message) {
            return new ParseError(message + " at offset " + pos);
        }

        String describe() {
            if (pos >= text.length()) {
                return "end of input";
            }
            char c = text.charAt(pos);
            return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int) c);
        }

        void skipWhitespace() {
            // RFC 8259 whitespace is exactly these four characters (no form feed, no NBSP...).
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                pos++;
            }
        }

        Object value(int depth) throws ParseError {
            if (pos >= text.length()) {
                throw error("expected a value, found end of input");
            }
            char c = text.charAt(pos);
            switch (c) {
                case '{':
                    return object(depth + 1);
                case '[':
                    return array(depth + 1);
                case '"':
                    return string();
                case 't':
                    literal("true");
                    return Boolean.TRUE;
                case 'f':
                    literal("false");
                    return Boolean.FALSE;
                case 'n':
                    literal("null");
                    return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("expected a value, found " + describe());
            }
        }

        void literal(String word) throws ParseError {
            if (!text.startsWith(word, pos)) {
                throw error("invalid literal (expected '" + word + "')");
            }
            pos += word.length();
        }

        Map<String, Object> object(int depth) throws ParseError {
            if (depth > MAX_DEPTH) {
                throw error("nested deeper than " + MAX_DEPTH + " levels");
            }
            pos++; // '{'
            Map<String, Object> members = new LinkedHashMap<>();
            skipWhitespace();
            if (pos < text.length() && text.charAt(pos) == '}') {
                pos++;
                return members;
            }
            while (true) {
                skipWhitespace();
                if (pos >= text.length() || text.charAt(pos) != '"') {
                    throw error("expected a member name in double quotes, found " + describe());
                }
                int at = pos;
                String name = string();
                if (members.containsKey(name)) {
                    pos = at;
                    throw error("member name \"" + name + "\" given twice");
                }
                skipWhitespace();
                expect(':');
                skipWhitespace();
                members.put(name, value(depth));
                skipWhitespace();
                if (pos < text.length() && text.charAt(pos) == ',') {
                    pos++;
                    continue;
                }
                expect('}');
                return members;
            }
        }

        List<Object> array(int depth) throws ParseError {
            if (depth > MAX_DEPTH) {
                throw error("nested deeper than " + MAX_DEPTH + " levels");
            }
            pos++; // '['
            List<Object> items = new ArrayList<>();
            skipWhitespace();
            if (pos < text.length() && text.charAt(pos) == ']') {
                pos++;
                return items;
            }
            while (true) {
                skipWhitespace();
                items.add(value(depth));
                skipWhitespace();
                if (pos < text.length() && text.charAt(pos) == ',') {
                    pos++;
                    continue;
                }
                expect(']');
                return items;
            }
        }

        void expect(char c) throws ParseError {
            if (pos >= text.length() || text.charAt(pos) != c) {
                throw error("expected '" + c + "', found " + describe());
            }
            pos++;
        }

        String string() throws ParseError {
            pos++; // opening quote
            StringBuilder out = new StringBuilder();
            while (true) {
                if (pos >= text.length()) {
                    throw error("unterminated string");
                }
                char c = text.charAt(pos);
                if (c == '"') {
                    pos++;
                    return out.toString();
                }
                if (c < 0x20) {
                    throw error(String.format("control character U+%04X in a string (escape it)", (int) c));
                }
                if (c == '\\') {
                    pos++;
                    char unit = escape();
                    if (Character.isHighSurrogate(unit)) {
                        // A high surrogate must be followed by an escaped low one: \ud83c\udca1.
                        if (!text.startsWith("\\u", pos)) {
                            throw error("lone surrogate \\u" + hex4(unit) + " in a string");
                        }
                        pos++;
                        char low = escape();
                        if (!Character.isLowSurrogate(low)) {
                            throw error("lone surrogate \\u" + hex4(unit) + " in a string");
                        }
                        out.append(unit).append(low);
                    } else if (Character.isLowSurrogate(unit)) {
                        throw error("lone surrogate \\u" + hex4(unit) + " in a string");
                    } else {
                        out.append(unit);
                    }
                    continue;
                }
                // Raw characters: the line was decoded from strict UTF-8, so surrogates come in pairs.
                out.append(c);
                pos++;
            }
        }

        /** Reads the escape after a backslash (pos is on the letter) and returns the UTF-16 unit. */
        char escape() throws ParseError {
            if (pos >= text.length()) {
                throw error("unterminated escape");
            }
            char c = text.charAt(pos++);
            switch (c) {
                case '"':
                    return '"';
                case '\\':
                    return '\\';
                case '/':
                    return '/';
                case 'b':
                    return '\b';
                case 'f':
                    return '\f';
                case 'n':
                    return '\n';
                case 'r':
                    return '\r';
                case 't':
                    return '\t';
                case 'u': {
                    if (pos + 4 > text.length()) {
                        throw error("\\u needs four hexadecimal digits");
                    }
                    int unit = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = hexDigit(text.charAt(pos));
                        if (digit < 0) {
                            throw error("\\u needs four hexadecimal digits");
                        }
                        unit = unit * 16 + digit;
                        pos++;
                    }
                    return (char) unit;
                }
                default:
                    pos--;
                    throw error("invalid escape \\" + describe());
            }
        }

        Object number() throws ParseError {
            int start = pos;
            if (text.charAt(pos) == '-') {
                pos++;
            }
            if (pos >= text.length() || !isDigit(text.charAt(pos))) {
                throw error("expected a digit");
            }
            if (text.charAt(pos) == '0') {
                pos++;
                if (pos < text.length() && isDigit(text.charAt(pos))) {
                    throw error("leading zero in a number");
                }
            } else {
                digits();
            }
            boolean integral = true;
            if (pos < text.length() && text.charAt(pos) == '.') {
                integral = false;
                pos++;
                if (pos >= text.length() || !isDigit(text.charAt(pos))) {
                    throw error("expected a digit after the decimal point");
                }
                digits();
            }
            if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
                integral = false;
                pos++;
                if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                    pos++;
                }
                if (pos >= text.length() || !isDigit(text.charAt(pos))) {
                    throw error("expected a digit in the exponent");
                }
                digits();
            }
            String literal = text.substring(start, pos);
            if (integral) {
                try {
                    return Long.parseLong(literal);
                } catch (NumberFormatException tooBig) {
                    // beyond a long: still a number, kept as a double if it is in range (below)
                }
            }
            double value = Double.parseDouble(literal);
            if (Double.isInfinite(value)) {
                pos = start;
                throw error("number " + literal + " is beyond the range of a double");
            }
            return value;
        }

        void digits() {
            while (pos < text.length() && isDigit(text.charAt(pos))) {
                pos++;
            }
        }

        /** The value of an ASCII hexadecimal digit, or -1 (Character.digit also takes other scripts' digits). */
        static int hexDigit(char c) {
            if (c >= '0' && c <= '9') {
                return c - '0';
            }
            if (c >= 'a' && c <= 'f') {
                return c - 'a' + 10;
            }
            if (c >= 'A' && c <= 'F') {
                return c - 'A' + 10;
            }
            return -1;
        }

        static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }

    private static String hex4(char unit) {
        return String.format("%04x", (int) unit);
    }

    // ------------------------------------------------------------------------------------ writing

    /** The JSON text of a value, on one line (never a raw newline: the protocol is line-based). */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("JSON nested deeper than " + MAX_DEPTH + " levels");
        }
        if (value == null) {
            out.append("null");
        } else if (value instanceof Raw) {
            out.append(((Raw) value).text());
        } else if (value instanceof Writable) {
            write(((Writable) value).toJson(), out, depth);
        } else if (value instanceof String) {
            writeString((String) value, out);
        } else if (value instanceof Boolean) {
            out.append(value.toString());
        } else if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (Double.isNaN(number) || Double.isInfinite(number)) {
                throw new IllegalArgumentException("JSON has no " + number);
            }
            out.append(Double.toString(number));
        } else if (value instanceof Number) {
            // Long, Integer, Short, Byte, BigInteger: written as integers.
            out.append(value.toString());
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> member : ((Map<?, ?>) value).entrySet()) {
                if (!(member.getKey() instanceof String)) {
                    throw new IllegalArgumentException("JSON member names are strings, not " + member.getKey());
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeString((String) member.getKey(), out);
                out.append(':');
                write(member.getValue(), out, depth + 1);
            }
            out.append('}');
        } else if (value instanceof Iterable) {
            out.append('[');
            boolean first = true;
            for (Object item : (Iterable<?>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(item, out, depth + 1);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void writeString(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                default:
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        out.append("\\u").append(hex4(c));
                    } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        out.append(c).append(text.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        // A lone surrogate is not I-JSON (the harness calls it garbage): replace it.
                        out.append('\ufffd');
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
