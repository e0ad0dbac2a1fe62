package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
)

// A study served over HTTP: create it, ask for a trial, tell its result.
func Example() {
	srv := httptest.NewServer(server.New(storage.NewMemory(), server.Options{}))
	defer srv.Close()

	post := func(path, body string) string {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	fmt.Println(post("/api/v1/studies", `{"name":"demo","sampler":"random","trials":1,
		"space":{"k":{"type":"categorical","choices":["a"]}}}`)[:3])
	fmt.Println(post("/api/v1/studies/demo/ask", `{"worker":"example"}`))
	fmt.Println(post("/api/v1/trials/1/tell", `{"value":0.25}`))
	fmt.Println(post("/api/v1/trials/1/tell", `{"value":"NaN"}`))
	fmt.Println(post("/api/v1/studies/demo/ask", `{}`))
	// Output:
	// 201
	// 200 {"trials":[{"id":1,"number":0,"params":{"k":"a"},"batch":1}],"pending":0,"lease_seconds":30}
	// 200 {"id":1,"number":0,"state":"COMPLETE","value":0.25}
	// 400 {"error":"value: \"NaN\" is not a finite number; NaN and Infinity cannot be recorded (tell {\"state\":\"FAILED\",\"reason\":\"...\"} for an evaluation that produced one)"}
	// 200 {"trials":[],"pending":0,"lease_seconds":30}
}
