package config

import "slices"

// mcpAccount decodes the keys of a third-party MCP mail server account.
// It returns the key paths of secret-looking env values.
func mcpAccount(t *table, a *Account) []string {
	var secrets []string
	if list, ok := t.strList("command"); !ok && !t.has("command") {
		t.errorf("command", "missing: the server's program and arguments, like [\"npx\", \"-y\", \"email-mcp\"]")
	} else if ok {
		if len(list) == 0 || list[0] == "" {
			t.errorf("command", "must start with the program to run")
		}
		a.Command = list
	}
	if env, ok := t.sub("env"); ok {
		a.Env = map[string]string{}
		for _, name := range sortedKeys(env.m) {
			v, ok := env.str(name)
			if !ok {
				continue
			}
			if !envName().MatchString(name) {
				env.errorf(name, "%q is not an environment variable name", name)
			}
			a.Env[name] = v
			if v != "" && secretName().MatchString(name) {
				secrets = append(secrets, env.at(name))
			}
		}
		env.finish()
	}
	a.Cwd, _ = t.str("cwd")
	a.Profile, _ = t.str("profile")
	if s, ok := t.str("secret_env"); ok {
		switch {
		case !envName().MatchString(s):
			t.errorf("secret_env", "%q is not an environment variable name", s)
		case a.PasswordCmd == "" && a.PasswordEnv == "":
			t.errorf("secret_env", "set password_cmd or password_env too: they say where %s's value comes from", s)
		}
		if _, clash := a.Env[s]; clash {
			t.errorf("secret_env", "%s is also set in env; the password would overwrite it", s)
		}
		a.SecretEnv = s
	} else if !t.has("secret_env") && (a.PasswordCmd != "" || a.PasswordEnv != "") {
		t.errorf("secret_env", "missing: name the variable that hands the password to the server, like \"EMAIL_PASS\"")
	}
	if tools, ok := t.sub("tools"); ok {
		a.Tools = map[string]ToolCall{}
		for _, op := range sortedKeys(tools.m) {
			if call, ok := tools.sub(op); ok {
				a.Tools[op] = toolCall(call)
			}
		}
		tools.finish()
	}
	if steps, ok := t.tables("provision"); ok {
		for _, step := range steps {
			a.Provision = append(a.Provision, toolCall(step))
		}
	}
	return secrets
}

// toolCall decodes {tool, args}; args stay as decoded, since only the
// provider mapping knows what each tool expects.
func toolCall(t *table) ToolCall {
	var c ToolCall
	if s, ok := t.str("tool"); !ok && !t.has("tool") {
		t.errorf("tool", "missing: the MCP tool's name")
	} else if ok {
		if s == "" {
			t.errorf("tool", "must not be empty")
		}
		c.Tool = s
	}
	if args, ok := t.sub("args"); ok {
		c.Args = args.m
	}
	t.finish()
	return c
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
