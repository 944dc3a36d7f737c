package guinote.kit;

import guinote.kit.Protocol.Cmd;
import guinote.kit.Protocol.Err;
import guinote.kit.Protocol.Failure;
import guinote.kit.Protocol.Request;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocol loop of GCP/2 (docs/checking/protocol.md). You should not need to edit this file:
 * the engine is {@link Game}, the message types are {@link Protocol}.
 *
 * <p>The harness starts this program once and writes one JSON request per line on stdin; the
 * program writes exactly one JSON answer per line on stdout, flushed at once, echoing the request's
 * id. stdout carries nothing else: {@code System.out} is pointed at stderr before anything runs, so a
 * stray debug print lands in the log instead of breaking the stream. The program exits with status 0
 * after answering {@code stop}, and when stdin ends (so it never outlives a harness that died).
 *
 * <p>Nothing from the wire is trusted: a line that is not UTF-8 or not JSON, not an object, or has no
 * integer id is answered {@code bad_request} with id null; a request with a wrong member is
 * {@code bad_request}; an exception in the game is {@code engine_error} (its stack trace goes to
 * stderr) and the loop keeps serving.
 *
 * <p>The optional command {@code batch} is answered by {@link Batch} on top of the game's
 * {@code apply}, {@code legal} and {@code state}, and hello declares the capability {@code batch}:
 * an engine written from this kit gets it with no code of its own.
 */
public final class Main {
    private final Map<String, Game> games = new HashMap<>();
    private long started;
    private boolean stopping;

    public static void main(String[] args) throws IOException {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        InputStream in = new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16);
        Main server = new Main();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b != -1 && b != '\n') {
                line.write(b);
                continue;
            }
            if (b == -1 && line.size() == 0) {
                break;
            }
            String answer = server.answer(line.toByteArray());
            line.reset();
            if (answer != null) {
                protocol.print(answer);
                protocol.print('\n'); // '\n' on every platform: the protocol's line end
                protocol.flush();
            }
            if (server.stopping || b == -1) {
                break;
            }
        }
        protocol.flush();
        System.exit(0);
    }

    /** The answer line to one request line (without its '\n'), or null for a blank line. */
    String answer(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException error) {
            return error(null, Err.BAD_REQUEST, "not UTF-8: " + error.getMessage());
        }
        if (text.isBlank()) {
            return null; // nothing was asked, so nothing is answered (an answer would be unsolicited)
        }
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (Json.ParseError error) {
            return error(null, Err.BAD_REQUEST, "not JSON: " + error.getMessage());
        }
        if (!(parsed instanceof Map)) {
            return error(null, Err.BAD_REQUEST, "a request is a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> members = (Map<String, Object>) parsed;
        Object id = members.get("id");
        if (!(id instanceof Long) || (Long) id < 0) {
            return error(null, Err.BAD_REQUEST, "a request has an integer id (0 or more)");
        }
        Long number = (Long) id;
        Object cmd = members.get("cmd");
        if (!(cmd instanceof String)) {
            return error(number, Err.BAD_REQUEST, "a request has a string member \"cmd\"");
        }
        try {
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("id", number);
            reply.put("ok", true);
            reply.putAll(handle(new Request(number, (String) cmd, members)));
            return Json.write(reply); // inside the try: a value with no JSON form is an engine_error
        } catch (Failure failure) {
            stopping = false;
            return error(number, failure.code, failure.getMessage(), failure.unsupported);
        } catch (RuntimeException | StackOverflowError bug) {
            stopping = false;
            bug.printStackTrace(System.err); // a bug: report it on stderr and keep serving
            return error(number, Err.ENGINE_ERROR, bug.toString());
        }
    }

    /** The members of a successful answer (beside id and ok). */
    private Map<String, Object> handle(Request request) {
        Map<String, Object> reply = new LinkedHashMap<>();
        switch (request.cmd()) {
            case Cmd.HELLO: {
                long asked = request.integer("protocol");
                if (asked < Protocol.VERSION) {
                    throw new Failure(Err.UNSUPPORTED_PROTOCOL,
                            "this engine speaks protocol " + Protocol.VERSION + ", not " + asked);
                }
                reply.put("protocol", Protocol.VERSION);
                reply.put("engine", Batch.declared(Game.ENGINE));
                return reply;
            }
            case Cmd.START: {
                Map<String, Object> setup = request.object("setup");
                if (!(setup.get("flags") instanceof Map)) {
                    throw new Failure(Err.BAD_REQUEST, "a setup gives its flags (an object)");
                }
                List<String> missing = Game.unsupported(setup);
                if (!missing.isEmpty()) {
                    throw new Failure(Err.UNSUPPORTED, "this engine does not play " + String.join(", ", missing),
                            missing);
                }
                Game game = new Game(setup);
                started += 1;
                String name = "g" + started;
                games.put(name, game);
                reply.put("game", name);
                return reply;
            }
            case Cmd.LEGAL:
                reply.put("actions", gameOf(request).legal());
                return reply;
            case Cmd.APPLY: {
                Game game = gameOf(request);
                if (!request.members().containsKey("action")) {
                    throw new Failure(Err.BAD_REQUEST, "apply needs a member \"action\"");
                }
                // The action itself is not checked here: a malformed one is a refusal, the game's call.
                @SuppressWarnings("unchecked")
                Map<String, Object> outcome = (Map<String, Object>) game.apply(request.members().get("action")).toJson();
                reply.putAll(outcome);
                return reply;
            }
            case Cmd.STATE: {
                Game game = gameOf(request);
                reply.put("value", game.state(request.string("field")));
                return reply;
            }
            case Cmd.OBSERVE: {
                Game game = gameOf(request);
                if (!Game.ENGINE.capabilities().contains(Protocol.Capability.OBSERVATIONS)) {
                    throw new Failure(Err.ENGINE_ERROR,
                            "observe is not offered: this engine does not declare the capability observations");
                }
                reply.put("value", game.observe((int) request.integer("seat"), request.string("field")));
                return reply;
            }
            case Cmd.END:
                gameOf(request);
                games.remove(request.string("game"));
                return reply;
            case Cmd.STOP:
                stopping = true;
                return reply;
            case Cmd.BATCH:
                return Batch.answer(gameOf(request), request);
            default:
                throw new Failure(Err.BAD_REQUEST, "unknown command " + Json.write(request.cmd()));
        }
    }

    private Game gameOf(Request request) {
        String name = request.string("game");
        Game game = games.get(name);
        if (game == null) {
            throw new Failure(Err.UNKNOWN_GAME, "no game " + Json.write(name));
        }
        return game;
    }

    private static String error(Long id, String code, String message) {
        return error(id, code, message, List.of());
    }

    private static String error(Long id, String code, String message, List<String> unsupported) {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("id", id);
        reply.put("ok", false);
        reply.put("error", code);
        reply.put("message", message == null ? code : message);
        if (!unsupported.isEmpty()) {
            reply.put("unsupported", unsupported);
        }
        return Json.write(reply);
    }
}
