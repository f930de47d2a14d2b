// Package entra is an offline Microsoft Entra ID authority: OpenID metadata,
// a signing-key set and a token endpoint for the client-credentials grant
// (client secret), so that ClientSecretCredential, EnvironmentCredential and
// DefaultAzureCredential of the Azure SDKs get tokens from the emulator by
// configuration alone (their authority host pointed at its HTTPS listener).
//
// It serves two authority shapes on the same key:
//
//   - Entra ID, "https://<host>/<tenant>": /<tenant>/v2.0/.well-known/openid-configuration,
//     /<tenant>/oauth2/v2.0/token (and the v1 /<tenant>/oauth2/token). SDKs must
//     not run instance discovery, which always asks login.microsoftonline.com
//     about a host it does not know (Go azidentity: DisableInstanceDiscovery;
//     JS @azure/identity 4: disableInstanceDiscovery; Debian's Python
//     azure-identity 1.13.0b2 has no such switch, so it needs the AD FS shape).
//   - AD FS, "https://<host>/adfs" (Azure Stack Hub's shape): the tenant
//     "adfs" makes MSAL skip instance discovery in every language, so it is
//     the one that works with DefaultAzureCredential and environment
//     variables alone.
//
// Tokens are RS256 JWTs signed by a key each Authority generates (on first
// use); Verify checks signature, audience and expiry on the emulator clock.
// Any client id and secret are accepted: the emulator has no directory.
package entra

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// DefaultLifetime is how long an issued token is valid on the emulator
// clock. Entra gives 60–90 minutes; one day keeps tests that advance a
// virtual clock by hours from outliving a token the SDK still caches.
const DefaultLifetime = 24 * time.Hour

// Audiences of the two planes GridBridge serves (the resource of the scope
// "<resource>/.default" a client asks for).
const (
	AudienceARM       = "https://management.azure.com"
	AudienceEventGrid = "https://eventgrid.azure.net"
)

// Errors Verify returns.
var (
	// ErrNotIssued: the token is not a JWT this authority signed (another
	// issuer's, or not a JWT at all).
	ErrNotIssued = errors.New("the token was not issued by the emulator's authority")
	ErrSignature = errors.New("the token's signature is not valid")
	ErrExpired   = errors.New("the token has expired")
	ErrAudience  = errors.New("the token was obtained for another audience")
	ErrMalformed = errors.New("the token is malformed")
)

// Config configures an Authority.
type Config struct {
	// Now is the emulator clock; tokens' iat, nbf and exp come from it.
	Now func() time.Time
	// Lifetime of issued tokens; 0 means DefaultLifetime.
	Lifetime time.Duration
}

// Authority issues and verifies tokens. Its zero value is not usable; call New.
type Authority struct {
	cfg     Config
	keyOnce sync.Once
	key     *rsa.PrivateKey
	keyErr  error
	kid     string

	// verified caches the claims of tokens whose signature was checked, by
	// the whole token: SDKs send one token for an hour, and an RSA
	// verification costs far more than the request it guards. Expiry and
	// audience are still checked on every call.
	mu       sync.Mutex
	verified map[string]*Claims
}

// maxVerified bounds the cache; it is emptied when full.
const maxVerified = 4096

// New returns an authority with its own signing key (generated on first use,
// so a server that never issues a token pays nothing for it).
func New(cfg Config) *Authority {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Lifetime <= 0 {
		cfg.Lifetime = DefaultLifetime
	}
	return &Authority{cfg: cfg}
}

func (a *Authority) signingKey() (*rsa.PrivateKey, string, error) {
	a.keyOnce.Do(func() {
		a.key, a.keyErr = rsa.GenerateKey(rand.Reader, 2048)
		if a.keyErr == nil {
			// The key id is the JWK thumbprint's prefix: stable for the key,
			// different for every authority.
			sum := sha256.Sum256(a.key.N.Bytes())
			a.kid = base64.RawURLEncoding.EncodeToString(sum[:12])
		}
	})
	return a.key, a.kid, a.keyErr
}

// Claims are the claims of an issued token that Verify reads.
type Claims struct {
	Issuer    string `json:"iss"`
	Audience  string `json:"aud"`
	Subject   string `json:"sub"`
	AppID     string `json:"appid"`
	ObjectID  string `json:"oid"`
	TenantID  string `json:"tid"`
	IssuedAt  int64  `json:"iat"`
	NotBefore int64  `json:"nbf"`
	Expires   int64  `json:"exp"`
	Version   string `json:"ver"`
}

// Issue signs a token for clientID in tenant, for audience, issued by issuer.
func (a *Authority) Issue(issuer, tenant, clientID, audience string) (token string, expires time.Time, err error) {
	key, kid, err := a.signingKey()
	if err != nil {
		return "", time.Time{}, err
	}
	now := a.cfg.Now().UTC()
	expires = now.Add(a.cfg.Lifetime)
	// The service principal's object id is derived from the client id, so a
	// client keeps one identity across tokens.
	oid := uuid.NewSHA1(uuid.NameSpaceURL, []byte("gridbridge-entra:"+clientID)).String()
	claims := Claims{
		Issuer: issuer, Audience: audience, Subject: oid, AppID: clientID, ObjectID: oid, TenantID: tenant,
		IssuedAt: now.Unix(), NotBefore: now.Unix(), Expires: expires.Unix(), Version: "2.0",
	}
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": kid})
	body, _ := json.Marshal(claims)
	unsigned := b64(header) + "." + b64(body)
	digest := sha256.Sum256([]byte(unsigned))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, digest[:])
	if err != nil {
		return "", time.Time{}, err
	}
	return unsigned + "." + b64(sig), expires, nil
}

// Verify checks that token is one this authority signed, not expired on the
// emulator clock, for one of audiences (compared without case and trailing
// slash). ErrNotIssued means the token is someone else's (or not a JWT);
// the caller decides whether to accept such tokens.
func (a *Authority) Verify(token string, audiences ...string) (*Claims, error) {
	if c := a.cached(token); c != nil {
		return a.check(c, audiences)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, ErrNotIssued
	}
	var header struct{ Alg, Kid string }
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil || json.Unmarshal(raw, &header) != nil {
		return nil, ErrNotIssued
	}
	key, kid, err := a.signingKey()
	if err != nil {
		return nil, err
	}
	if header.Kid != kid {
		return nil, ErrNotIssued
	}
	if header.Alg != "RS256" {
		return nil, ErrSignature
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return nil, ErrSignature
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, digest[:], sig) != nil {
		return nil, ErrSignature
	}
	var c Claims
	raw, err = base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return nil, ErrMalformed
	}
	a.remember(token, &c)
	return a.check(&c, audiences)
}

func (a *Authority) cached(token string) *Claims {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.verified[token]
}

func (a *Authority) remember(token string, c *Claims) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.verified == nil || len(a.verified) >= maxVerified {
		a.verified = make(map[string]*Claims)
	}
	a.verified[token] = c
}

// check applies the time and audience rules to claims whose signature is good.
func (a *Authority) check(c *Claims, audiences []string) (*Claims, error) {
	now := a.cfg.Now().Unix()
	if now >= c.Expires || now < c.NotBefore {
		return c, ErrExpired
	}
	for _, want := range audiences {
		if sameAudience(c.Audience, want) {
			return c, nil
		}
	}
	return c, fmt.Errorf("%w %q, not %s", ErrAudience, c.Audience, strings.Join(audiences, " or "))
}

func sameAudience(a, b string) bool {
	return strings.EqualFold(strings.TrimRight(a, "/"), strings.TrimRight(b, "/"))
}

// jwks is the public key set (/discovery/v2.0/keys).
func (a *Authority) jwks() (map[string]any, error) {
	key, kid, err := a.signingKey()
	if err != nil {
		return nil, err
	}
	return map[string]any{"keys": []map[string]any{{
		"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
		"n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes()),
	}}}, nil
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
